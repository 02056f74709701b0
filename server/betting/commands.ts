import { Console, Effect } from "effect"
import { type AdminCommand, explain, registerCommand, UsageError } from "../admin/registry.ts"
import { Audit, CLI } from "../desk/Audit.ts"
import { ODDS_EVENTS } from "../odds/cluster.ts"
import { Realtime } from "../realtime/Realtime.ts"
import { Settlement } from "./Settlement.ts"

/** Settlement for the command line, on the CLI's own ledger and realtime (user events reach the servers over PostgreSQL). */
const SettlementCli = Settlement.layer

/** The operator acting from the command line (market_results.settled_by). */
const CLI_OPERATOR = "cli"

const printSettlement = (s: { marketId: string; outcome: string; result: string | null; bets: number; players: number; playersNet: number }) =>
  Console.log(`market ${s.marketId}: ${s.outcome === "void" ? "voided" : `settled, result ${s.result}`}; ${s.bets} bets of ${s.players} players; players net ₹${s.playersNet.toFixed(2)}`)

/** The running servers' odds leader closes the market at once (else at its next reload of the markets). */
const tellTheFeed = Realtime.use((realtime) => realtime.tellServers(ODDS_EVENTS.reload))

export const settle: AdminCommand = {
  name: "settle",
  usage: "<marketId> <result>",
  description: "Settles a market once: <result> is the winning selection id, or for a fancy the result in runs. Pays winners, collects from losers, releases exposure.",
  run: (args) =>
    Effect.gen(function*() {
      const [marketId, result] = args
      if (!marketId || !result) throw new UsageError("Give the market's id and its result.")
      const settlement = yield* Settlement
      const audit = yield* Audit
      yield* printSettlement(yield* explain(audit.around(CLI, { action: "market.settle", subject: { kind: "market", id: marketId } }, settlement.settle(marketId, result, CLI_OPERATOR))))
      yield* tellTheFeed
    }).pipe(Effect.provide(SettlementCli))
}

export const voidMarket: AdminCommand = {
  name: "void-market",
  usage: "<marketId> [reason]",
  description: "Voids a market once: every open bet on it is returned, stakes and liabilities released.",
  run: (args) =>
    Effect.gen(function*() {
      const [marketId, ...reason] = args
      if (!marketId) throw new UsageError("Give the market's id.")
      const settlement = yield* Settlement
      const audit = yield* Audit
      yield* printSettlement(yield* explain(audit.around(CLI, { action: "market.void", subject: { kind: "market", id: marketId } }, settlement.voidMarket(marketId, reason.join(" ") || "Voided by the operator", CLI_OPERATOR))))
      yield* tellTheFeed
    }).pipe(Effect.provide(SettlementCli))
}

export const markets: AdminCommand = {
  name: "markets",
  usage: "[search]",
  description: "Lists markets still to settle (with their runners' selection ids) and their open bets; [search] matches event or market names.",
  run: (args) =>
    Effect.gen(function*() {
      const settlement = yield* Settlement
      const rows = yield* settlement.unsettled(args.join(" "))
      if (rows.length === 0) yield* Console.log("(none)")
      else yield* Console.table(rows)
    }).pipe(Effect.provide(SettlementCli))
}

registerCommand(settle, voidMarket, markets)
