import { Effect } from "effect"
import { expect } from "vitest"
import { sign } from "../../server/casino/signature.ts"
import { request, type TestServer } from "./helpers.ts"

export const khelSecret = (server: TestServer) =>
  server.sql((sql) => sql<{ walletSecret: string }>`SELECT wallet_secret FROM casino_providers WHERE code = 'khel'`.pipe(Effect.map((rows) => rows[0]!.walletSecret)))

export interface WalletOptions {
  readonly provider?: string
  readonly secret?: string
  readonly timestamp?: string
  /** Sign this text but send `body` (a tampered request). */
  readonly signedBody?: string
}

/** A seamless-wallet call signed the way docs/casino.md says a provider signs it. */
export const walletCall = async (server: TestServer, path: "balance" | "debit" | "credit" | "rollback", body: unknown, options: WalletOptions = {}) => {
  const text = JSON.stringify(body)
  const timestamp = options.timestamp ?? String(Math.floor(Date.now() / 1000))
  const secret = options.secret ?? (await khelSecret(server))
  return request(server.url, `/api/v1/casino/wallet/${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-provider": options.provider ?? "khel",
      "x-timestamp": timestamp,
      "x-signature": sign(secret, timestamp, options.signedBody ?? text)
    },
    body: text
  })
}

/** Launches a game as a signed-in player and returns the launch URL's token. */
export const launch = async (server: TestServer, token: string, id = "khel-dt-1") => {
  const res = await request(server.url, `/api/v1/live-casino-dcs/${encodeURIComponent(id)}`, { token })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  const url = new URL(res.body.data as string, server.url)
  return { url, token: url.searchParams.get("token")! }
}

/** How many ledger transactions of a kind a player has. */
export const ledgerCount = (server: TestServer, userId: string, kind: string) =>
  server.sql((sql) =>
    sql<{ n: number }>`SELECT count(*)::int AS n FROM ledger_transactions WHERE user_id = ${userId} AND kind = ${kind}`.pipe(Effect.map((rows) => rows[0]!.n))
  )

export const mainBalance = (server: TestServer, userId: string) =>
  server.sql((sql) =>
    sql<{ balance: bigint }>`SELECT balance FROM ledger_accounts WHERE user_id = ${userId} AND kind = 'main'`.pipe(Effect.map((rows) => Number(rows[0]?.balance ?? 0)))
  )

/** Today in India, as casino-bets-by-date takes it. */
export const today = () => new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10)

let counter = 0
export const freshId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++counter}`
