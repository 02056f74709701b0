import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Envelope } from "./envelope.ts"
import { Reasons } from "./errors.ts"
import { MarketType } from "./sports.ts"

/** At most this many settled markets a page; `limit` asks for fewer. */
export const RESULTS_PAGE = 50

/** /results' query: a sport (its slug) or all, and paging by the cursor (`after`) the previous page answered as `next`. */
export const ResultsQuery = Schema.Struct({
  sport: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(64))),
  limit: Schema.optionalKey(Schema.NumberFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: RESULTS_PAGE }))),
  after: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(120)))
})
export type ResultsQuery = typeof ResultsQuery.Type

/** A market settled or voided: what it was and how it ended. */
export const SettledMarket = Schema.Struct({
  marketId: Schema.String,
  market: Schema.String,
  marketType: MarketType,
  /** The event's feed id (the `id` of the catalogue's events). */
  eventId: Schema.String,
  event: Schema.String,
  sport: Schema.String,
  sportSlug: Schema.String,
  league: Schema.String,
  /** ISO time of the settlement. */
  settledAt: Schema.String,
  outcome: Schema.Literals(["result", "void"]),
  /** The winning runner's name, or a line's result (runs, goals, points); null when void. */
  result: Schema.NullOr(Schema.String)
})
export type SettledMarket = typeof SettledMarket.Type

/** Newest first; `next` is the cursor of the following page, null on the last. */
export const ResultsPage = Schema.Struct({ rows: Schema.Array(SettledMarket), next: Schema.NullOr(Schema.String) })
export type ResultsPage = typeof ResultsPage.Type

/** Public: the markets settled in the last 7 days. */
export class ResultsApi extends HttpApiGroup.make("results")
  .add(HttpApiEndpoint.get("results", "/results", { query: ResultsQuery, success: Envelope(ResultsPage) }).annotate(Reasons, ["InvalidInput"]))
  .prefix("/api/v1")
{}
