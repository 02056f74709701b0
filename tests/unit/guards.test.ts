import { readFileSync } from "node:fs"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { GUARDS_FILE, guardsSource } from "../../scripts/guards.ts"
import { EventOdds, OddsBatch } from "../../src/schema/betting.ts"
import { CasinoApi } from "../../src/schema/casino.ts"
import { Envelope, Meta } from "../../src/schema/envelope.ts"
import { ErrorTag, Failure } from "../../src/schema/errors.ts"
import {
  isAnswer,
  isCatalogueChanged,
  isErrorTag,
  isEventOdds,
  isFailure,
  isFlash,
  isOddsBatch,
  isPushMessage,
  isUserChanged,
  startupCalls
} from "../../src/schema/guards.ts"
import { UserApi } from "../../src/schema/identity.ts"
import { Flash } from "../../src/schema/notices.ts"
import { PushMessage } from "../../src/schema/push.ts"
import { CatalogueChanged, UserChanged } from "../../src/schema/realtime.ts"
import { SettingsApi } from "../../src/schema/settings.ts"
import { SportsApi, SportsData, SportsDataAuthenticated } from "../../src/schema/sports.ts"

/**
 * The first page's guards (src/schema/guards.ts) are the schemas' checks: the
 * file is what scripts/guards.ts writes from the schemas today, and on a valid
 * answer and every damaged copy of it (each field missing, of another type, out
 * of its literals) a guard says what `Schema.is` says.
 */

const meta = { code: 200, message: "Success", token: "t", error: "Refused" }
const market = { _id: "m", marketId: "1.2", name: "Match Odds", marketType: "EXCHANGE", marketStartTime: "2026-01-01T00:00:00Z", status: "OPEN", runners: [{ selectionId: "1", name: "India" }] }
const event = { _id: "e", id: "1", name: "India v Australia", slugName: "india-v-australia", date: "2026-01-01T00:00:00Z", sportCode: "4", inPlay: true, markets: [market] }
const sports = [{ _id: "s", name: "Cricket", slugName: "cricket", sportsCode: "4", leagues: [{ _id: "l", name: "IPL", slugName: "ipl", events: [event] }] }]
const settings = { siteTitle: "Khel", color: "#ff0000", faviconImg: "data:", logoImg: "data:" }
const allSettings = {
  settings,
  contacts: { helpline: "1", whatsapp: "2", email: "a@b.c", supportChat: "x" },
  socials: [{ name: "x", url: "https://x" }],
  compliance: { depositsOpen: true, blockedRegions: ["MH", "TN"] }
}
const user = {
  id: "u",
  name: "A",
  username: "a",
  mobileNo: "+919800000000",
  role: 4,
  wallet: 1,
  balance: 10.5,
  exposure: -2,
  bonus: 0,
  refBonus: 0,
  creditReference: 0,
  referralCode: "R",
  bets: [{ eventId: { _id: "e" } }]
}

const book = {
  marketId: "1.2",
  eventId: "e",
  marketType: "FANCY",
  status: "OPEN",
  inPlay: true,
  runners: [{ selectionId: "1", back: [{ price: 45, size: 100 }], lay: [{ price: 44, size: 90 }] }],
  version: 3
}
const score = { eventId: "e", sportCode: "4", home: "MI 84/2 (9.3)", away: "CSK", summary: "", clock: "9.3", status: "live" }
const game = { _id: "g", table_id: "t", game_id: "1", provider_name: "Ezugi", provider: "ezugi", game_category: "Roulette", game_images: "/images/x.png", title: "Roulette" }

/** Every damaged copy of `value`: each key removed, each leaf and node replaced by values of other kinds. */
const damaged = (value: unknown): Array<unknown> => {
  const others: Array<unknown> = ["x", 1.5, 7, Number.NaN, Number.POSITIVE_INFINITY, true, null, undefined, [], {}, "ZZ"]
  const out: Array<unknown> = [...others]
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      for (const d of damaged(item)) out.push(value.map((v, j) => (j === i ? d : v)))
    })
  } else if (typeof value === "object" && value !== null) {
    for (const key of Object.keys(value)) {
      const { [key]: removed, ...rest } = value as Record<string, unknown>
      out.push(rest)
      for (const d of damaged(removed)) out.push({ ...rest, [key]: d })
    }
  }
  return out
}

/** An endpoint's success schema: its envelope. */
const successOf = (endpoint: { readonly success: unknown }) => [...(endpoint.success as ReadonlySet<Schema.Top>)][0]!

const agree = (name: string, guard: (u: unknown) => boolean, schema: Schema.Top, valid: unknown) => {
  it(`${name}: valid and ${damaged(valid).length} damaged answers as the schema reads them`, () => {
    const is = Schema.is(schema as Schema.Codec<unknown, unknown>)
    expect(guard(valid)).toBe(true)
    expect(is(valid)).toBe(true)
    for (const sample of damaged(valid)) expect({ sample, verdict: guard(sample) }).toEqual({ sample, verdict: is(sample) })
  })
}

describe("the first page's guards", () => {
  it("are what scripts/guards.ts writes from the schemas today (npm run guards)", () => {
    expect(readFileSync(GUARDS_FILE, "utf8")).toBe(guardsSource())
  })

  agree("any envelope", isAnswer, Schema.Struct({ meta: Meta }), { meta, data: null })
  agree("a failure", isFailure, Failure, { code: 422, message: "No", reason: "OddsChanged" })
  agree("a reason", isErrorTag, ErrorTag, "MarketSuspended")
  agree("the user's socket event", isUserChanged, UserChanged, { reason: "deposit", at: 1 })
  agree("a flashed toast", isFlash, Flash, { type: "success", message: "Logged In", subMessage: "Welcome" })
  agree("sports", startupCalls.sportsData.is, Envelope(SportsData), { meta, data: sports })
  agree("sports (signed in)", startupCalls.sportsDataAuthenticated.is, successOf(SportsDataAuthenticated), { meta, data: sports })
  agree("banners", startupCalls.advertisement.is, successOf(SettingsApi.endpoints.advertisement), {
    meta,
    data: [{ _id: "b", order: 1, title: "T", baseImage: "data:" }]
  })
  agree("site settings", startupCalls.appSettings.is, successOf(SettingsApi.endpoints.appSettings), { meta, data: settings })
  agree("all settings", startupCalls.allAppSettings.is, successOf(SettingsApi.endpoints.allAppSettings), { meta, data: allSettings })
  agree("the user", startupCalls.getUserData.is, successOf(UserApi.endpoints.getUserData), { meta, data: user })
  agree("a lobby's games", startupCalls.casinoGames.is, successOf(CasinoApi.endpoints.casinoGames), { meta, data: [game] })
  agree("SA Gaming's games", startupCalls.saCasinoGames.is, successOf(CasinoApi.endpoints.saCasinoGames), { meta, data: [game] })
  agree("an event's odds snapshot", isEventOdds, EventOdds, { eventId: "e", markets: [book], score })
  agree("a batch of odds", isOddsBatch, OddsBatch, { markets: [book], scores: [score] })
  agree("a catalogue change", isCatalogueChanged, CatalogueChanged, { at: 1 })
  agree("a change of one event's markets", isCatalogueChanged, CatalogueChanged, { at: 1, eventId: "e" })
  agree("a push message", isPushMessage, PushMessage, { kind: "bet.won", title: "Your bet won", body: "India v Australia · Match Odds: you won ₹200.00.", url: "/profit-loss", tag: "won:1.2" })

  it("name the endpoints' paths and methods", () => {
    expect(startupCalls.sportsData.path).toBe(SportsApi.endpoints.sportsData.path)
    expect(startupCalls.getUserData).toMatchObject({ method: "GET", path: UserApi.endpoints.getUserData.path })
  })
})
