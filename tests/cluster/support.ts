import type { CatalogueEvent as ListedEvent, CatalogueMarket } from "../server/betting-support.ts"
import { request, waitForCode } from "../http.ts"
import type { Cluster } from "./harness.ts"

/** A JSON call to the cluster (or one server): status and body (the envelope); `key` is the Idempotency-Key. */
export const call = (base: string, path: string, options: { method?: string; token?: string; json?: unknown; key?: string } = {}) =>
  request(base, path, {
    ...(options.method ? { method: options.method } : options.json === undefined ? {} : { method: "POST" }),
    ...(options.token ? { token: options.token } : {}),
    ...(options.json === undefined ? {} : { json: options.json }),
    ...(options.key ? { headers: { "idempotency-key": options.key } } : {})
  })

let counter = 0

/** A new verified player with money, signed up through nginx (the code comes from the shared SMS outbox). */
export const newPlayer = async (cluster: Cluster, adminToken: string, rupees = 1_000_000) => {
  const mobileNo = `+9178${String(Date.now() % 1e5).padStart(5, "0")}${String(++counter % 1000).padStart(3, "0")}`
  const signUp = await call(cluster.url, "/identity/user/sign-up", { json: { name: "Cluster Player", mobile_no: mobileNo, password: "Monsoon#Tiffin42", confirmPassword: "Monsoon#Tiffin42", ageConfirmed: true, region: "MH" } })
  if (signUp.status !== 200) throw new Error(`sign-up: ${JSON.stringify(signUp.body)}`)
  const otp = await waitForCode(cluster.dataDir, mobileNo, "signup")
  const verified = await call(cluster.url, "/identity/user/verify-otp", { json: { mobile_no: mobileNo, otp } })
  if (verified.status !== 200) throw new Error(`verify: ${JSON.stringify(verified.body)}`)
  const token = verified.body.meta.token as string
  if (rupees > 0) {
    const credited = await call(cluster.url, "/api/v1/admin/credit", { token: adminToken, json: { user: verified.body.data.username, amount: rupees } })
    if (credited.status !== 200) throw new Error(`credit: ${JSON.stringify(credited.body)}`)
  }
  return { token, id: verified.body.data.id as string, username: verified.body.data.username as string }
}

export const login = async (base: string, username: string, password: string) => {
  const res = await call(base, "/identity/user/login", { json: { username, password } })
  if (res.status !== 200) throw new Error(`login: ${JSON.stringify(res.body)}`)
  return res.body.meta.token as string
}

export type Market = CatalogueMarket

/** An event of the catalogue with its sport and league (for its page's address). */
export interface CatalogueEvent extends ListedEvent {
  sport: { slugName: string }
  league: { slugName: string }
}

/** Every listed event with its sport and league. */
export const events = async (base: string) => {
  const sports = (await call(base, "/api/v1/get-sports-data")).body.data as Array<{ slugName: string; leagues: Array<{ slugName: string; events: Array<ListedEvent> }> }>
  return sports.flatMap((sport) => sport.leagues.flatMap((league) => league.events.map((event) => ({ ...event, sport: { slugName: sport.slugName }, league: { slugName: league.slugName } }))))
}

/** A bet's answer that settles it: placed, or refused for a reason. A failure (no answer, 502/503/504) is not one. */
const settled = (status: number) => status === 200 || (status >= 400 && status < 500)

/**
 * Places a bet with an Idempotency-Key and keeps retrying it with the same
 * key while it fails (the server went away, nginx found none): the first
 * answer that settles it is returned, with how many failures came first.
 */
export const betOnce = async (base: string, token: string, key: string, json: Record<string, unknown>, giveUpAt: number, failed?: Map<number, number>) => {
  let failures = 0
  for (;;) {
    const answer = await call(base, "/api/v1/bet-sport", { token, json, key }).catch((error: unknown) => ({ status: 0, body: String(error) }))
    if (settled(answer.status)) return { ...answer, failures }
    failures++
    failed?.set(answer.status, (failed.get(answer.status) ?? 0) + 1)
    if (Date.now() > giveUpAt) return { ...answer, failures }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

export interface Stream {
  /** Idempotency-Key → the bet's id, for every bet the cluster acknowledged. */
  readonly placed: Map<string, string>
  /** Idempotency-Key → the refusal (an answer too: odds, market closed…). */
  readonly refused: Map<string, string>
  /** Keys whose first try failed (and a retry with the same key answered). */
  readonly retried: Set<string>
  /** Keys never answered before the deadline. */
  readonly unanswered: Set<string>
  /** Failed tries by HTTP status (0: no answer at all). */
  readonly failed: Map<number, number>
  readonly stop: () => Promise<void>
}

/**
 * A steady stream of bets through nginx: each player bets again as soon as
 * its last bet is answered, backs and lays in turn (exposure stays small), on
 * the given markets, at any price (1.01 to back, 1000 to lay: the ladder always covers it).
 */
export const streamBets = (base: string, players: ReadonlyArray<{ token: string }>, markets: ReadonlyArray<Market>, prefix: string): Stream => {
  const placed = new Map<string, string>()
  const refused = new Map<string, string>()
  const retried = new Set<string>()
  const unanswered = new Set<string>()
  const failed = new Map<number, number>()
  let running = true
  const workers = players.map(async (player, w) => {
    for (let i = 0; running; i++) {
      const market = markets[(w + i) % markets.length]!
      const runner = market.runners[i % market.runners.length]!
      const side = i % 2 === 0 ? "back" : "lay"
      const key = `${prefix}-${w}-${i}`
      const answer = await betOnce(base, player.token, key, { marketId: market.marketId, selectionId: runner.selectionId, selectionType: side, odds: side === "back" ? 1.01 : 1000, stake: 100 }, Date.now() + 120_000, failed)
      if (answer.failures > 0) retried.add(key)
      if (answer.status === 200) placed.set(key, answer.body.data.bet._id as string)
      else if (answer.status >= 400 && answer.status < 500) refused.set(key, `${answer.status} ${answer.body?.meta?.message}`)
      else unanswered.add(key)
    }
  })
  return {
    placed,
    refused,
    retried,
    unanswered,
    failed,
    stop: async () => {
      running = false
      await Promise.all(workers)
    }
  }
}
