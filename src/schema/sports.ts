import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Envelope } from "./envelope.ts"
import { Schema } from "effect"

export const MarketType = Schema.Literals(["EXCHANGE", "BOOKMAKER", "FANCY"])
export type MarketType = typeof MarketType.Type

export const Runner = Schema.Struct({ selectionId: Schema.String, name: Schema.String })
export type Runner = typeof Runner.Type

export const Market = Schema.Struct({
  _id: Schema.String,
  marketId: Schema.String,
  name: Schema.String,
  marketType: MarketType,
  marketStartTime: Schema.String,
  status: Schema.Literals(["OPEN", "SUSPENDED", "CLOSED", "SETTLED", "VOID"]),
  runners: Schema.Array(Runner)
})
export type Market = typeof Market.Type

export const Event = Schema.Struct({
  _id: Schema.String,
  id: Schema.String,
  name: Schema.String,
  slugName: Schema.String,
  /** ISO start time. */
  date: Schema.String,
  sportCode: Schema.String,
  inPlay: Schema.Boolean,
  markets: Schema.Array(Market)
})
export type Event = typeof Event.Type

export const League = Schema.Struct({
  _id: Schema.String,
  name: Schema.String,
  slugName: Schema.String,
  events: Schema.Array(Event)
})
export type League = typeof League.Type

export const Sport = Schema.Struct({
  _id: Schema.String,
  name: Schema.String,
  slugName: Schema.String,
  sportsCode: Schema.String,
  leagues: Schema.Array(League)
})
export type Sport = typeof Sport.Type

export const SportsData = Schema.Array(Sport)
export type SportsData = typeof SportsData.Type

/** Racing: sport -> countries -> tracks -> events. */
export const RacingTrack = Schema.Struct({
  _id: Schema.String,
  name: Schema.String,
  slugName: Schema.String,
  events: Schema.Array(Event)
})
export type RacingTrack = typeof RacingTrack.Type

export const RacingCountry = Schema.Struct({ id: Schema.String, name: Schema.String, tracks: Schema.Array(RacingTrack) })
export type RacingCountry = typeof RacingCountry.Type

export const RacingSport = Schema.Struct({
  _id: Schema.String,
  name: Schema.String,
  slugName: Schema.String,
  sportsCode: Schema.String,
  countries: Schema.Array(RacingCountry)
})
export type RacingSport = typeof RacingSport.Type

export class SportsApi extends HttpApiGroup.make("sports")
  .add(HttpApiEndpoint.get("sportsData", "/get-sports-data", { success: Envelope(SportsData) }))
  .prefix("/api/v1")
{}

/**
 * The same list for a signed-in player: the client calls it while a token is
 * stored (SPEC sections 6 and 7). Served by the betting group, behind its
 * authentication; declared here so the first page needs none of the betting
 * schemas to call it.
 */
export const sportsDataAuthenticate = HttpApiEndpoint.get("sportsDataAuthenticate", "/get-sports-data-authenticate", { success: Envelope(SportsData) })

/** `sportsDataAuthenticate` at the path it is served on. */
export const SportsDataAuthenticated = sportsDataAuthenticate.prefix("/api/v1")
