import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import sharp from "sharp"
import { expect } from "vitest"
import { Bonus } from "../../server/bonus/Bonus.ts"
import { Ledger, type Posting } from "../../server/ledger/Ledger.ts"
import { freshUtr } from "../http.ts"
import { loginAs, request, type TestServer } from "./helpers.ts"

/** The test server's own ledger (tests post, settle and verify through it; players' sockets hear about it). */
export const withLedger = <A>(server: TestServer, f: (ledger: Ledger["Service"]) => Effect.Effect<A, unknown>) =>
  server.run(Ledger.use(f))

/** What the betting engine does at settlement: counts what the player risked on a market towards the bonus in play. */
export const settleStake = (server: TestServer, userId: string, riskedPaise: number) =>
  server.run(Bonus.use((bonus) => bonus.recordWagering(userId, riskedPaise)))

export const post = (server: TestServer, posting: Posting) => withLedger(server, (ledger) => ledger.post(posting))

export const balancesOf = (server: TestServer, userId: string) => withLedger(server, (ledger) => ledger.balances(userId))

let keyCounter = 0
export const freshKey = () => `test-${Date.now().toString(36)}-${++keyCounter}`

export const adminToken = async (server: TestServer) => (await loginAs(server, "admin")).token

export const depositAccount = async (server: TestServer, token: string, type: "upi" | "bank" = "upi") => {
  const res = await request(server.url, "/api/v1/admin-account-details", { token })
  expect(res.status).toBe(200)
  return (res.body.data as Array<{ _id: string; type: string }>).find((a) => a.type === type)!
}

export const createDeposit = async (server: TestServer, token: string, amount: number, extra: Record<string, unknown> = {}) => {
  const account = await depositAccount(server, token)
  return request(server.url, "/api/v1/admin-deposit-request", {
    method: "POST",
    token,
    json: { amount, accountId: account._id, type: "upi", txnRef: freshUtr(), ...extra }
  })
}

export const approveDeposit = (server: TestServer, admin: string, id: string, key?: string) =>
  request(server.url, `/api/v1/admin/deposit-requests/${id}/approve`, {
    method: "PUT",
    token: admin,
    json: {},
    ...(key ? { headers: { "idempotency-key": key } } : {})
  })

/** Deposits and approves: the player's main balance rises by `amount`. */
export const fund = async (server: TestServer, token: string, amount: number, admin?: string) => {
  const deposit = await createDeposit(server, token, amount)
  expect(deposit.status).toBe(200)
  const approved = await approveDeposit(server, admin ?? (await adminToken(server)), deposit.body.data._id)
  expect(approved.status).toBe(200)
  return deposit.body.data._id as string
}

let upiCounter = 0
/** Adds a UPI id as the player's payout account (by default one of their own: a UPI id is one player's). */
export const addUpi = async (server: TestServer, token: string, upi = `ravi.kumar.${process.pid}.${++upiCounter}@okhdfcbank`) => {
  const res = await request(server.url, "/api/v1/account-details", {
    method: "POST",
    token,
    json: { type: "upi", accountNumber: upi, accountHolderName: "Ravi Kumar" }
  })
  expect(res.status).toBe(200)
  return res.body.data._id as string
}

export const user = async (server: TestServer, token: string) => (await request(server.url, "/api/v1/getUserData", { token })).body.data

/** A small real image, optionally with EXIF metadata (to check it is stripped). */
export const pngDataUrl = async (options: { exif?: boolean; format?: "png" | "jpeg" | "webp" } = {}) => {
  let image = sharp({ create: { width: 64, height: 40, channels: 3, background: { r: 20, g: 120, b: 200 } } })
  if (options.exif) image = image.withExif({ IFD0: { Copyright: "secret-location", Artist: "someone" } })
  const format = options.format ?? "png"
  const buffer = await image.toFormat(format).toBuffer()
  return { dataUrl: `data:image/${format};base64,${buffer.toString("base64")}`, buffer }
}

/** A PostgreSQL database of its own (for a server process a test spawns); `drop` removes it. */
export const freshDatabase = async () => {
  const admin = process.env.DATABASE_URL!
  const name = `khel_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  const run = (statement: string) =>
    Effect.runPromise(SqlClient.SqlClient.use((sql) => sql.unsafe(statement)).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(admin), maxConnections: 1 })), Effect.scoped))
  await run(`CREATE DATABASE ${name}`)
  const url = new URL(admin)
  url.pathname = `/${name}`
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }
}
