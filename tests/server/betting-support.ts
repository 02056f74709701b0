import { Effect } from "effect"
import { expect } from "vitest"
import { marketExposure } from "../../src/domain/betting.ts"
import { positionsOf } from "../../src/domain/matching.ts"
import type { MarketType } from "../../src/schema/sports.ts"
import { request, signUpPlayer, type TestServer } from "./helpers.ts"

/** Puts money in a player's main account the way a confirmed deposit does: one balanced ledger transaction. */
export const fund = (server: TestServer, userId: string, paise: number, kind: "main" | "bonus" = "main") =>
  server.sql((sql) =>
    sql.withTransaction(Effect.gen(function*() {
      yield* sql`INSERT INTO ledger_accounts (user_id, kind, floor) VALUES (${userId}, ${kind}, 0) ON CONFLICT (user_id, kind) DO NOTHING`
      yield* sql`INSERT INTO ledger_accounts (user_id, kind, floor) VALUES (NULL, 'deposits', NULL) ON CONFLICT (user_id, kind) DO NOTHING`
      const [tx] = yield* sql<{ id: string }>`
        INSERT INTO ledger_transactions (kind, user_id, description) VALUES ('deposit', ${userId}, 'Test deposit') RETURNING id
      `
      const [main] = yield* sql<{ id: string; balance: bigint }>`
        UPDATE ledger_accounts SET balance = balance + ${paise} WHERE user_id = ${userId} AND kind = ${kind} RETURNING id, balance
      `
      const [deposits] = yield* sql<{ id: string; balance: bigint }>`
        UPDATE ledger_accounts SET balance = balance - ${paise} WHERE user_id IS NULL AND kind = 'deposits' RETURNING id, balance
      `
      yield* sql`INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after) VALUES (${tx!.id}, ${main!.id}, ${paise}, ${main!.balance})`
      yield* sql`INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after) VALUES (${tx!.id}, ${deposits!.id}, ${-paise}, ${deposits!.balance})`
    }))
  )

/** A new player with `rupees` in their main balance. */
export const fundedPlayer = async (server: TestServer, rupees: number) => {
  const player = await signUpPlayer(server)
  if (rupees > 0) await fund(server, player.user.id, rupees * 100)
  return player
}

/**
 * The checks of `Ledger.verify` (npm run admin -- verify-ledger), plus the
 * betting invariant: each player's exposure accounts hold exactly the sum of
 * their markets' worst cases.
 */
export const expectLedgerClean = async (server: TestServer) => {
  const result = await server.sql((sql) =>
    Effect.gen(function*() {
      const unbalanced = yield* sql`
        SELECT t.id FROM ledger_transactions t LEFT JOIN ledger_entries e ON e.transaction_id = t.id
         GROUP BY t.id HAVING coalesce(sum(e.amount), 0) <> 0 OR count(e.id) < 2
      `
      const drifted = yield* sql`
        SELECT a.id FROM ledger_accounts a LEFT JOIN ledger_entries e ON e.account_id = a.id
         GROUP BY a.id HAVING a.balance <> coalesce(sum(e.amount), 0)
      `
      const belowFloor = yield* sql`SELECT id FROM ledger_accounts WHERE floor IS NOT NULL AND balance < floor`
      const [total] = yield* sql<{ total: string }>`SELECT coalesce(sum(balance), 0)::text AS total FROM ledger_accounts`
      const exposureMismatch = yield* sql`
        SELECT a.user_id, a.kind FROM ledger_accounts a
          LEFT JOIN (SELECT user_id, wallet, sum(exposure) AS held FROM market_exposures GROUP BY user_id, wallet) m
            ON m.user_id = a.user_id AND m.wallet = CASE a.kind WHEN 'exposure' THEN 1 ELSE 2 END
         WHERE a.kind IN ('exposure', 'bonus_exposure') AND a.balance <> coalesce(m.held, 0)
      `
      return { unbalanced, drifted, belowFloor, total: total!.total, exposureMismatch }
    })
  )
  expect(result.unbalanced).toEqual([])
  expect(result.drifted).toEqual([])
  expect(result.belowFloor).toEqual([])
  expect(result.total).toBe("0")
  expect(result.exposureMismatch).toEqual([])
  await expectHoldsWorstCase(server)
}

/**
 * Each market holds, for each player, the worst case of their open bets on it (src/domain/betting.ts): matched parts
 * and what waits unmatched, as the rules count them.
 */
export const expectHoldsWorstCase = async (server: TestServer) => {
  const rows = await server.sql((sql) => sql<{ userId: string; marketId: string; marketType: MarketType; held: string | null; runners: Array<string>; bets: Array<{ selectionId: string; side: "back" | "lay"; odds: number; size: number | null; stake: number; unmatched: number; matches: Array<{ odds: number; stake: number }> | null }> }>`
    SELECT b.user_id, b.market_id, m.market_type, me.exposure::text AS held,
           (SELECT json_agg(r.selection_id) FROM runners r WHERE r.market_id = b.market_id) AS runners,
           json_agg(json_build_object('selectionId', b.selection_id, 'side', b.side, 'odds', b.odds, 'size', b.size, 'stake', b.stake, 'unmatched', b.unmatched, 'matches', b.matches)) AS bets
      FROM bets b JOIN markets m ON m.id = b.market_id
      LEFT JOIN market_exposures me ON me.user_id = b.user_id AND me.market_id = b.market_id
     WHERE b.status = 'open'
     GROUP BY b.user_id, b.market_id, m.market_type, me.exposure
  `)
  const wrong = rows.flatMap((row) => {
    const worst = marketExposure(row.marketType, row.runners, row.bets.flatMap((bet) => positionsOf({ ...bet, matches: bet.matches ?? [{ odds: bet.odds, stake: bet.stake }] })))
    return Number(row.held ?? 0) === worst ? [] : [{ user: row.userId, market: row.marketId, held: Number(row.held ?? 0), worst }]
  })
  expect(wrong).toEqual([])
}

export interface CatalogueMarket {
  _id: string
  marketId: string
  name: string
  marketType: "EXCHANGE" | "BOOKMAKER" | "FANCY"
  runners: Array<{ selectionId: string; name: string }>
}
export interface CatalogueEvent {
  _id: string
  name: string
  slugName: string
  inPlay: boolean
  markets: Array<CatalogueMarket>
}
export interface CatalogueSport {
  _id: string
  slugName: string
  leagues: Array<{ _id: string; slugName: string; events: Array<CatalogueEvent> }>
}

export const catalogue = async (server: TestServer) => {
  const res = await request(server.url, "/api/v1/get-sports-data")
  return res.body.data as Array<CatalogueSport>
}

/** Events of a sport, in play or not. */
export const eventsOf = (sports: Array<CatalogueSport>, slug: string, inPlay?: boolean) =>
  sports.find((s) => s.slugName === slug)!.leagues.flatMap((l) => l.events).filter((e) => inPlay === undefined || e.inPlay === inPlay)

export const marketOf = (event: CatalogueEvent, type: CatalogueMarket["marketType"], name?: string) =>
  event.markets.find((m) => m.marketType === type && (name === undefined || m.name.startsWith(name)))!

/** The best back and lay of a runner right now. */
export const priceOf = async (server: TestServer, eventId: string, marketId: string, selectionId: string) => {
  const res = await request(server.url, `/api/v1/event-odds?event_id=${eventId}`)
  const book = (res.body.data.markets as Array<{ marketId: string; status: string; runners: Array<{ selectionId: string; back: Array<{ price: number; size: number }>; lay: Array<{ price: number; size: number }> }> }>)
    .find((m) => m.marketId === marketId)!
  const runner = book.runners.find((r) => r.selectionId === selectionId)!
  return { back: runner.back[0]!, lay: runner.lay[0]!, status: book.status }
}

export const balances = async (server: TestServer, token: string) => {
  const res = await request(server.url, "/api/v1/getUserData", { token })
  return res.body.data as { balance: number; exposure: number; bonus: number; bets: Array<{ eventId: { _id: string } }> }
}

export const setPrice = (server: TestServer, adminToken: string, body: Record<string, unknown>) =>
  request(server.url, "/api/v1/admin/market-price", { method: "POST", token: adminToken, json: body })

export const bet = (server: TestServer, token: string, path: "bet-sport" | "bet-racing" | "fancy-bet-sport", json: Record<string, unknown>, key?: string) =>
  request(server.url, `/api/v1/${path}`, { method: "POST", token, json, ...(key ? { headers: { "idempotency-key": key } } : {}) })

/** A cricket match that has not started and is not in `used` (it is added), with its Match Odds and Bookmaker markets. */
export const freshMatch = async (server: TestServer, used: Set<string>) => {
  const match = eventsOf(await catalogue(server), "cricket", false).find((event: CatalogueEvent) =>
    !used.has(event._id) && event.markets.some((m) => m.name === "Match Odds") && event.markets.some((m) => m.marketType === "BOOKMAKER")
  )!
  used.add(match._id)
  return { matchOdds: marketOf(match, "EXCHANGE", "Match Odds"), bookmaker: marketOf(match, "BOOKMAKER"), home: 0, away: 1 }
}

/** Prices a market's first runner by hand, back 2.00 / lay 2.02, so a back is taken at 2. */
export const priceAtEvens = async (server: TestServer, adminToken: string, market: { marketId: string; runners: Array<{ selectionId: string }> }) => {
  expect((await setPrice(server, adminToken, { marketId: market.marketId, selectionId: market.runners[0]!.selectionId, back: { price: 2, size: 50_000 }, lay: { price: 2.02, size: 50_000 }, status: "OPEN" })).status).toBe(200)
  return 2
}

export const settleMarket = (server: TestServer, adminToken: string, marketId: string, result: string) =>
  request(server.url, "/api/v1/admin/settle-market", { method: "POST", token: adminToken, json: { marketId, result } })

/** Real play from the main wallet: `stake` backed at 2.00 on a fresh match that then goes the other way, both its markets settled. */
export const backAndLose = async (server: TestServer, adminToken: string, token: string, stake: number, used: Set<string>) => {
  const { matchOdds, bookmaker } = await freshMatch(server, used)
  const placed = await bet(server, token, "bet-sport", {
    marketId: matchOdds.marketId, selectionId: matchOdds.runners[0]!.selectionId, selectionType: "back", odds: await priceAtEvens(server, adminToken, matchOdds), stake
  })
  expect(placed.status).toBe(200)
  expect((await settleMarket(server, adminToken, matchOdds.marketId, matchOdds.runners[1]!.selectionId)).status).toBe(200)
  expect((await settleMarket(server, adminToken, bookmaker.marketId, bookmaker.runners[1]!.selectionId)).status).toBe(200)
}
