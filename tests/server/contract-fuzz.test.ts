import { Arbitrary, Context, Effect, Option, Schema } from "effect"
import { HttpApi } from "effect/http-api"
import fc from "fast-check"
import { beforeAll, describe, expect, it } from "vitest"
import { sign } from "../../server/casino/signature.ts"
import { Sessions } from "../../server/identity/Sessions.ts"
import { Api } from "../../src/schema/api.ts"
import { ErrorTag, Reasons } from "../../src/schema/errors.ts"
import { khelSecret, launch } from "./casino-support.ts"
import { reasonProblem } from "./contract.ts"
import { expectLedgerVerifies, freshUtr, loginAs, request, signUpPlayer, useServer } from "./helpers.ts"

/**
 * The contract fuzzer. Every endpoint of the HttpApi definition gets requests
 * built from its own schemas: valid ones (derived from the schemas, with real
 * ids from the running server mixed in so requests reach deep: bets on real
 * markets, withdrawals from real balances, operators' decisions on real
 * requests), near-valid ones (one field dropped, retyped, or out of range)
 * and hostile ones (huge strings, NUL, bidirectional controls, deep nesting,
 * extra and prototype-polluting fields, broken path parameters and queries).
 * Whatever arrives, the answer is never a 500 and always the envelope (its
 * reason one the endpoint declares, sent with the reason's status), and the
 * ledger verifies afterwards.
 *
 * RUNS_PER_ENDPOINT bounds the time it takes in CI; FUZZ_RUNS raises it and
 * FUZZ_SEED replays a failure (fast-check prints the seed).
 */
const RUNS_PER_ENDPOINT = Number(process.env.FUZZ_RUNS ?? 12)
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED)

// Prices stay where they are and events neither start nor finish: the fuzzer's requests are the only changes.
process.env.ODDS_SIMULATOR = "off"

type Role = "visitor" | "player" | "operator" | "provider"

interface Target {
  readonly label: string
  readonly method: string
  readonly path: string
  readonly role: Role
  readonly params: Schema.Top | undefined
  readonly query: Schema.Top | undefined
  readonly payload: Schema.Top | undefined
  /** The failure reasons the endpoint declares (`Reasons`), when it declares them. */
  readonly reasons: ReadonlyArray<ErrorTag> | undefined
}

const targets: Array<Target> = []
HttpApi.reflect(Api, {
  onGroup: () => undefined,
  onEndpoint: ({ group, endpoint, middleware }) => {
    const keys = [...middleware].map((m) => (m as unknown as { key: string }).key)
    const role: Role = keys.includes("khel/ProviderSignature")
      ? "provider"
      : keys.includes("khel/StaffAuthentication")
      ? "operator"
      : keys.includes("khel/Authentication")
      ? /admin/i.test(group.identifier) || endpoint.path.startsWith("/api/v1/admin/") ? "operator" : "player"
      : "visitor"
    const json = endpoint.payload.get("application/json")
    targets.push({
      label: `${endpoint.method} ${endpoint.path}`,
      method: endpoint.method,
      path: endpoint.path,
      role,
      params: endpoint.params,
      query: endpoint.query,
      payload: json && json.encoding._tag !== "Stream" ? (json.schemas.length === 1 ? json.schemas[0] : Schema.Union(json.schemas)) as Schema.Top : undefined,
      reasons: Option.getOrUndefined(Context.getOption(endpoint.annotations, Reasons))
    })
  }
})

/**
 * Payloads written by hand where the schema's checks are too narrow for the generator to hit by chance (a
 * box that must be ticked, one of India's state codes): each is checked against the schema before it is used.
 */
const EXAMPLES: Record<string, unknown> = {
  "POST /identity/user/sign-up": { name: "Fuzz Player", mobile_no: "+919876500001", password: "Monsoon-Tiffin-42", confirmPassword: "Monsoon-Tiffin-42", ageConfirmed: true, region: "MH" }
}

/** Values the schema accepts, encoded as they travel. */
const validSamples = (schema: Schema.Top | undefined, count: number, seed: number, example?: unknown): Array<unknown> => {
  if (!schema) return [undefined]
  const codec = schema as unknown as Schema.Codec<unknown, unknown>
  if (example !== undefined) return [Schema.encodeUnknownSync(codec)(Schema.decodeUnknownSync(codec)(example))]
  const values = Effect.runSync(Arbitrary.sampleEffect(Arbitrary.schema(codec), { count, seed }))
  return values.map((value) => Schema.encodeUnknownSync(codec)(value))
}

/** Strings that have broken servers before. */
const HOSTILE_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\u202Eevil\u202C",
  "\u2066x\u2069",
  "'; DROP TABLE users; --",
  "' OR '1'='1",
  "$1",
  "${7*7}",
  "<script>alert(1)</script>",
  "../../../../etc/passwd",
  "%00",
  "%",
  "\ud800",
  "😀".repeat(50),
  "9".repeat(400),
  "-1",
  "1e309",
  "NaN",
  "x".repeat(100_000),
  "__proto__",
  "constructor",
  "null",
  "true"
]
const hostileString = fc.constantFrom(...HOSTILE_STRINGS)
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.constantFrom(0, -1, -0.001, 0.005, 1e-7, 2 ** 53, -(2 ** 53), 1e308, -1e308, 12.345, 99_999_999_999),
  fc.constantFrom(null, true, false, [], {}, [[[]]], { $gt: "" }),
  fc.string({ maxLength: 40 }),
  fc.double({ noNaN: true }),
  fc.integer(),
  fc.anything({ maxDepth: 3, maxKeys: 4 })
)
/** Text for a JSON value nested `depth` arrays deep. */
const deep = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`

type Mutation =
  | { readonly kind: "valid" }
  | { readonly kind: "drop"; readonly pick: number }
  | { readonly kind: "field"; readonly pick: number; readonly value: unknown }
  | { readonly kind: "extra"; readonly value: unknown }
  | { readonly kind: "pollute" }
  | { readonly kind: "deep"; readonly pick: number; readonly depth: number }
  | { readonly kind: "whole"; readonly value: unknown }
  | { readonly kind: "param"; readonly value: string }
  | { readonly kind: "query"; readonly pick: number; readonly value: string | ReadonlyArray<string> }
  | { readonly kind: "key"; readonly value: string }

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: "valid" as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("drop" as const), pick: fc.nat() }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("field" as const), pick: fc.nat(), value: hostileValue }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("extra" as const), value: hostileValue }) },
  { weight: 1, arbitrary: fc.constant({ kind: "pollute" as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("deep" as const), pick: fc.nat(), depth: fc.constantFrom(50, 2000, 20_000) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("whole" as const), value: hostileValue }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("param" as const), value: fc.oneof(hostileString, fc.string({ maxLength: 30 }), fc.constant("a".repeat(3000))) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("query" as const),
      pick: fc.nat(),
      value: fc.oneof(hostileString.filter((s) => s.length < 5000), fc.array(fc.string({ maxLength: 8 }), { minLength: 2, maxLength: 3 }))
    })
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("key" as const), value: fc.constantFrom("", " ", "k".repeat(500), "bad key!", "x/../y", "\u00e9") }) }
)

/**
 * Real ids of the running server (and amounts it accepts), swapped into fields with these names every other
 * time, so valid requests reach the handlers' depths: bets on real markets, decisions on real requests.
 */
const known: Record<string, Array<string | number>> = {
  // A back at 1.01 is always "the same or better"; stakes and amounts within every limit.
  odds: [1.01, 1.5],
  stake: [100, 250],
  amount: [100, 500]
}
const real = (field: string, current: unknown, index: number) => {
  const pool = known[field]
  if (!pool || pool.length === 0 || index % 2 !== 0) return current
  const value = pool[index % pool.length]
  return typeof value === typeof current ? value : current
}
/** A real market with one of its own runners, for payloads that name both. */
const markets: Array<{ readonly marketId: string; readonly selectionId: string }> = []
const withRealIds = (value: unknown, index: number): unknown => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value
  const swapped: Record<string, unknown> = Object.fromEntries(Object.entries(value).map(([key, field]) => [key, real(key, field, index)]))
  const pair = markets[index % Math.max(1, markets.length)]
  if (pair && index % 2 === 0 && typeof swapped.marketId === "string" && typeof swapped.selectionId === "string") Object.assign(swapped, pair)
  return swapped
}

interface Built {
  readonly url: string
  readonly body: string | undefined
  readonly headers: Record<string, string>
}

const build = (target: Target, samples: { params: Array<unknown>; query: Array<unknown>; payload: Array<unknown> }, index: number, m: Mutation): Built => {
  const params = withRealIds(samples.params[index % samples.params.length], index) as Record<string, string> | undefined
  let query = withRealIds(samples.query[index % samples.query.length], index) as Record<string, string | ReadonlyArray<string>> | undefined
  let payload = withRealIds(samples.payload[index % samples.payload.length], index)
  let bodyText: string | undefined

  // A lone surrogate cannot be percent-encoded: it travels as U+FFFD, as a browser would send it.
  const encode = (text: string) => encodeURIComponent(text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd"))
  let path = target.path.replace(/:(\w+)/g, (_, name: string) => encode(params?.[name] ?? "x"))
  if (m.kind === "param" && target.params) {
    // Raw when it stays one path segment (a client folds "a/../b" before sending), encoded otherwise.
    path = target.path.replace(/:(\w+)/, () => (/^[\x21-\x7e]*$/.test(m.value) && !m.value.includes("/") ? m.value : encode(m.value)))
  }
  if (m.kind === "query" && target.query) {
    const keys = Object.keys(query ?? {})
    const key = keys.length > 0 ? keys[m.pick % keys.length]! : "q"
    query = { ...query, [key]: m.value }
  }
  const object = typeof payload === "object" && payload !== null && !Array.isArray(payload) ? payload as Record<string, unknown> : undefined
  const fields = object ? Object.keys(object) : []
  if (object && fields.length > 0) {
    const pick = (n: number) => fields[n % fields.length]!
    if (m.kind === "drop") payload = Object.fromEntries(Object.entries(object).filter(([key]) => key !== pick(m.pick)))
    if (m.kind === "field") payload = { ...object, [pick(m.pick)]: m.value }
    if (m.kind === "deep") bodyText = JSON.stringify({ ...object, [pick(m.pick)]: "__DEEP__" }).replace('"__DEEP__"', deep(m.depth))
  }
  if (target.payload !== undefined) {
    if (m.kind === "extra") payload = { ...(object ?? {}), ["extra" + fields.length]: m.value, isAdmin: true, role: 101 }
    if (m.kind === "whole") payload = m.value
    if (m.kind === "pollute") bodyText = `{"__proto__":{"isAdmin":true,"role":101},"constructor":{"prototype":{"polluted":1}},${JSON.stringify(object ?? {}).slice(1)}`.replace(/,}$/, "}")
  }

  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) if (item !== undefined) search.append(key, String(item))
  }
  const url = `${path}${search.size > 0 ? `?${search}` : ""}`
  const body = target.payload === undefined ? undefined : bodyText ?? (payload === undefined ? undefined : JSON.stringify(payload))
  const headers: Record<string, string> = body === undefined ? {} : { "content-type": "application/json" }
  if (m.kind === "key") headers["idempotency-key"] = m.value
  else if (index % 3 === 0) headers["idempotency-key"] = `fuzz-${index}-${Math.random().toString(36).slice(2)}`
  return { url, body, headers }
}

const isTag = Schema.is(ErrorTag)

const server = useServer()
const tokens: Partial<Record<Role, string>> = {}
let player: Awaited<ReturnType<typeof signUpPlayer>>
let operatorId = ""

/** Endpoints that end the session they are called with get a session of their own each time. */
const endsSession = (target: Target) => ["/identity/user/logout", "/identity/user/change-password", "/api/v1/desk/sign-out"].includes(target.path)
const freshSession = async (role: "player" | "operator") =>
  role === "player"
    ? (await request(server.url, "/identity/user/login", { method: "POST", json: { username: player.user.username, password: player.password } })).body.meta.token as string
    : server.run(Sessions.use((sessions) => sessions.create(operatorId, { ip: "127.0.0.1" }, "desk")))
/** Answers that are not JSON when they succeed. */
const TEXT_ANSWERS = new Set(["GET /api/v1/desk/audit.csv"])

beforeAll(async () => {
  // The director: every desk endpoint is open to them.
  const operator = await loginAs(server, "director")
  tokens.operator = operator.token
  operatorId = operator.user.id
  player = await signUpPlayer(server, { name: "Fuzz Player" })
  tokens.player = player.token
  // Money to bet and withdraw with, a payout account, a deposit waiting, a bonus offered, a game launched.
  const credit = (user: string, amount: number) => request(server.url, "/api/v1/admin/credit", { method: "POST", token: operator.token, json: { user, amount } })
  expect((await credit(player.user.username, 50_000)).status).toBe(200)
  const payout = await request(server.url, "/api/v1/account-details", { method: "POST", token: player.token, json: { type: "upi", accountNumber: "fuzz@ybl", accountHolderName: "Fuzz Player" } })
  const accounts = (await request(server.url, "/api/v1/admin-account-details", { token: player.token })).body.data as Array<{ _id: string }>
  const deposit = await request(server.url, "/api/v1/admin-deposit-request", { method: "POST", token: player.token, json: { amount: 1000, accountId: accounts[0]!._id, type: "upi", txnRef: freshUtr() } })
  expect((await request(server.url, `/api/v1/admin/deposit-requests/${deposit.body.data._id}/approve`, { method: "PUT", token: operator.token, json: {} })).status).toBe(200)
  const bonus = (await request(server.url, "/api/v1/bonus-data", { token: player.token })).body.data.bonuses as Array<{ _id: string }>
  const sports = (await request(server.url, "/api/v1/get-sports-data")).body.data as Array<{ leagues: Array<{ events: Array<{ _id: string; markets: Array<{ marketId: string; runners: Array<{ selectionId: string }> }> }> }> }>
  const events = sports.flatMap((sport) => sport.leagues.flatMap((league) => league.events)).slice(0, 12)
  const game = await launch(server, player.token)
  const withdrawal = await request(server.url, "/api/v1/withdrawal-request", { method: "POST", token: player.token, json: { amount: 200, accountId: payout.body.data._id } })
  const games = (await request(server.url, "/api/v1/admin/casino-games", { token: operator.token })).body.data as Array<{ _id: string }>
  markets.push(...events.flatMap((event) => event.markets.flatMap((market) => market.runners.map((runner) => ({ marketId: market.marketId, selectionId: runner.selectionId })))))
  Object.assign(known, {
    ...known,
    accountId: [payout.body.data._id, accounts[0]!._id],
    bonusId: bonus.map((b) => b._id),
    marketId: events.flatMap((event) => event.markets.map((market) => market.marketId)),
    selectionId: events.flatMap((event) => event.markets.flatMap((market) => market.runners.map((runner) => runner.selectionId))),
    event_id: events.map((event) => event._id),
    eventId: events.map((event) => event._id),
    id: [deposit.body.data._id, withdrawal.body.data._id, games[0]!._id],
    user: [player.user.username, "demo"],
    token: [game.token],
    playerId: [player.user.id],
    game_id: ["khel-dt-1", "khel-ab-1"],
    // Operators may switch partners off or rotate their secrets; Khel Originals stays as it is, for the wallet's turn.
    code: ["ezugi", "evolution"],
    provider: ["all", "khel"],
    date: [new Date().toISOString().slice(0, 10)]
  })
})

describe("the contract fuzzer", () => {
  it("walks every endpoint of the API definition", () => {
    expect(targets.length).toBeGreaterThan(60)
    expect(new Set(targets.map((t) => t.role))).toEqual(new Set(["visitor", "player", "operator", "provider"]))
  })

  it.each(targets.map((target) => [target.label, target] as const))("%s: never a 500, always the envelope", async (_label, target) => {
    const seed = SEED ?? Math.floor(Math.random() * 2 ** 31)
    const samples = {
      params: validSamples(target.params, RUNS_PER_ENDPOINT, seed),
      query: validSamples(target.query, RUNS_PER_ENDPOINT, seed + 1),
      payload: validSamples(target.payload, RUNS_PER_ENDPOINT, seed + 2, EXAMPLES[target.label])
    }
    await fc.assert(
      fc.asyncProperty(fc.nat(RUNS_PER_ENDPOINT * 4), mutation, fc.boolean(), async (index, m, anonymous) => {
        const built = build(target, samples, index, m)
        const headers = { ...built.headers }
        // Mostly as the role the endpoint is for; sometimes with no credentials at all.
        const role = anonymous && index % 4 === 0 ? "visitor" : target.role
        if (role === "player" || role === "operator") headers.authorization = `Bearer ${endsSession(target) ? await freshSession(role) : tokens[role]}`
        if (role === "provider") {
          const timestamp = String(Math.floor(Date.now() / 1000))
          Object.assign(headers, { "x-provider": "khel", "x-timestamp": timestamp, "x-signature": sign(await khelSecret(server), timestamp, built.body ?? "") })
        }
        const res = await fetch(`${server.url}${built.url}`, { method: target.method, headers, ...(built.body === undefined ? {} : { body: built.body }) })
        const text = await res.text()
        const what = `${target.method} ${built.url} ${built.body?.slice(0, 300) ?? ""} -> ${res.status} ${text.slice(0, 300)}`
        expect(res.status, what).toBeLessThan(500)
        if (res.status === 200 && TEXT_ANSWERS.has(target.label)) return
        expect(res.headers.get("content-type"), what).toContain("application/json")
        const body = JSON.parse(text)
        expect(body.meta.code, what).toBe(res.status)
        expect(typeof body.meta.message, what).toBe("string")
        expect("data" in body, what).toBe(true)
        if (res.status !== 200) {
          expect(isTag(body.meta.error), what).toBe(true)
          expect(body.data, what).toBeNull()
          expect(reasonProblem(target.reasons, res.status, body.meta.error), what).toBeUndefined()
        }
      }),
      { numRuns: RUNS_PER_ENDPOINT, ...(SEED === undefined ? { seed } : { seed: SEED }), endOnFailure: true }
    )
  })

  it("left the ledger balanced and no prototype polluted", async () => {
    await expectLedgerVerifies(server)
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined()
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    const health = await request(server.url, "/api/v1/health")
    expect(health.status).toBe(200)
  })
})
