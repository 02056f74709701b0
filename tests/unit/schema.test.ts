import { Schema } from "effect"
import { OpenApi } from "effect/http-api"
import { Api } from "../../src/schema/api.ts"
import { OddsBatch } from "../../src/schema/betting.ts"
import { defaultTag, type ErrorTag, type Failure, messageOf, readTag, statusOf } from "../../src/schema/errors.ts"
import { asFailure } from "../../src/schema/failures.ts"
import { UserChanged } from "../../src/schema/realtime.ts"
import { Envelope, FailureEnvelope, refuse } from "../../src/schema/envelope.ts"
import { ForgotPasswordPayload, LoginPayload, SignUpPayload } from "../../src/schema/identity.ts"
import { SportsData } from "../../src/schema/sports.ts"
import { User } from "../../src/schema/user.ts"
import { splitStatements } from "../../server/db/split.ts"
import { describe, expect, it, vi } from "vitest"

describe("envelope", () => {
  it("decodes success and failure envelopes", () => {
    const ok = Schema.decodeUnknownSync(Envelope(Schema.Number))({ meta: { code: 200, message: "Success" }, data: 1 })
    expect(ok.data).toBe(1)
    const failure = Schema.decodeUnknownSync(FailureEnvelope)({ meta: { code: 422, message: "Insufficient balance", error: "InsufficientBalance" }, data: null })
    expect(failure.meta.message).toBe("Insufficient balance")
    expect(() => Schema.decodeUnknownSync(Envelope(Schema.Number))({ meta: { code: "200" }, data: 1 })).toThrow()
  })
})

describe("payloads", () => {
  it("takes a login by phone or by username", () => {
    expect(Schema.decodeUnknownSync(LoginPayload)({ mobile_no: "+919876543210", password: "x" })).toBeTruthy()
    expect(Schema.decodeUnknownSync(LoginPayload)({ username: "ravi", password: "x" })).toBeTruthy()
    expect(() => Schema.decodeUnknownSync(LoginPayload)({ username: "ravi" })).toThrow()
  })

  it("takes sign-up with an optional affiliate code, the age confirmation and the state of residence", () => {
    const base = { name: "Ravi", mobile_no: "9876543210", password: "secret12", confirmPassword: "secret12", ageConfirmed: true, region: "MH" }
    expect(Schema.decodeUnknownSync(SignUpPayload)(base)).toEqual(base)
    expect(Schema.decodeUnknownSync(SignUpPayload)({ ...base, affiliateCode: "ABC123" }).affiliateCode).toBe("ABC123")
    expect(() => Schema.decodeUnknownSync(SignUpPayload)({ ...base, ageConfirmed: false })).toThrow(/18 or older/)
    expect(() => Schema.decodeUnknownSync(SignUpPayload)({ ...base, region: "IN-MH" })).toThrow(/state you live in/)
    const { region: _region, ...withoutRegion } = base
    expect(() => Schema.decodeUnknownSync(SignUpPayload)(withoutRegion)).toThrow(/state you live in/)
  })

  it("tells the two forgot-password steps apart", () => {
    expect(Schema.decodeUnknownSync(ForgotPasswordPayload)({ mobile_no: "9876543210" })).toEqual({ mobile_no: "9876543210" })
    const reset = Schema.decodeUnknownSync(ForgotPasswordPayload)({ mobile_no: "9876543210", otp: "1234", password: "a", confirm_password: "a" })
    expect("otp" in reset).toBe(true)
  })
})

describe("entities", () => {
  it("decodes a user and refuses an unknown role or wallet", () => {
    const user = {
      id: "u1", name: "Ravi", username: "ravi", mobileNo: "+919876543210", role: 4, wallet: 1,
      balance: 1000.5, exposure: -200, bonus: 0, refBonus: 0, creditReference: 0, referralCode: "RAVI01", bets: []
    }
    expect(Schema.decodeUnknownSync(User)(user).balance).toBe(1000.5)
    expect(() => Schema.decodeUnknownSync(User)({ ...user, role: 7 })).toThrow()
    expect(() => Schema.decodeUnknownSync(User)({ ...user, wallet: 3 })).toThrow()
  })

  it("decodes the sports tree", () => {
    const data = [{ _id: "s", name: "Cricket", slugName: "cricket", sportsCode: "4", leagues: [{ _id: "l", name: "IPL", slugName: "ipl", events: [{
      _id: "e", id: "1", name: "A v B", slugName: "a-v-b", date: "2026-11-22T10:00:00.000Z", sportCode: "4", inPlay: true,
      markets: [{ _id: "m", marketId: "1.1", name: "Match Odds", marketType: "EXCHANGE", marketStartTime: "2026-11-22T10:00:00.000Z", status: "OPEN", runners: [{ selectionId: "1", name: "A" }] }]
    }] }] }]
    expect(Schema.decodeUnknownSync(SportsData)(data)[0]!.leagues[0]!.events[0]!.markets[0]!.marketType).toBe("EXCHANGE")
  })
})

describe("migration splitter", () => {
  it("splits on semicolons outside quotes, comments and dollar-quoted bodies", () => {
    const sql = `
      -- a comment; with a semicolon
      CREATE TABLE a (x text DEFAULT 'semi;colon');
      /* block; comment */
      CREATE FUNCTION f() RETURNS trigger AS $$ BEGIN RETURN NEW; END; $$ LANGUAGE plpgsql;
      CREATE TABLE "b;c" (y int)
    `
    const statements = splitStatements(sql)
    expect(statements).toHaveLength(3)
    expect(statements[0]).toContain("'semi;colon'")
    expect(statements[1]).toContain("RETURN NEW; END;")
    expect(statements[2]).toContain('"b;c"')
  })
})

describe("failure reasons are part of the contract", () => {
  it("lists each endpoint's declared reasons in the OpenAPI document, under their status codes", () => {
    const spec = OpenApi.fromApi(Api)
    const bet = spec.paths["/api/v1/bet-sport"]?.post
    const refused = bet?.responses[422]
    expect(refused?.description).toContain("OddsChanged")
    expect(JSON.stringify(refused?.content)).toContain('"InsufficientBalance"')
    expect(bet?.responses[400]?.description).toBe("Refused: InvalidInput")
    const withdraw = spec.paths["/api/v1/withdrawal-request"]?.post
    expect(withdraw?.responses[422]?.description).toBe("Refused: InsufficientBalance")
    expect(spec.paths["/identity/user/login"]?.post?.responses[422]?.description).toBe("Refused: InvalidCredentials")
    // A launch is refused to an operator (Forbidden) and to an account closed to play (docs/protection.md), both 403.
    expect(spec.paths["/api/v1/live-casino-dcs/{game_id}"]?.get?.responses[403]?.description).toBe("Refused: Forbidden, TimedOut, SelfExcluded, RegionBlocked")
    expect(spec.paths["/api/v1/protection/limits/confirm"]?.post?.responses[422]?.description).toBe("Refused: CoolingOff")
  })

  it("hands machines a specific reason only where the endpoint declares it", () => {
    expect(readTag(422, "OddsChanged", ["OddsChanged", "Refused"])).toBe("OddsChanged")
    // A tag the endpoint does not declare (or this build does not know) is read as the code's generic reason.
    expect(readTag(422, "OddsChanged", ["InsufficientBalance"])).toBe("Refused")
    expect(readTag(422, "SomethingNew", ["InsufficientBalance"])).toBe("Refused")
    expect(readTag(409, "Conflict", ["InsufficientBalance"])).toBe("Conflict")
    expect(readTag(429, undefined)).toBe("RateLimited")
    for (const tag of ["OddsChanged", "InsufficientBalance", "InvalidCredentials"] as const) expect(statusOf(tag)).toBe(422)
    // The limits' reasons travel with the status the server sends them with.
    expect(["WeakPassword", "UnsupportedMediaType", "CodesBlocked", "QuotaExceeded"].map((tag) => statusOf(tag as ErrorTag))).toEqual([400, 415, 429, 429])
  })

  it("sends each status's default reason with that status, so a failure named by its reason keeps its code", () => {
    for (const code of [400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503]) expect(statusOf(defaultTag(code))).toBe(code)
    expect(refuse("OddsChanged", "Odds changed")).toMatchObject({ code: 422, message: "Odds changed", tag: "OddsChanged" })
    expect(refuse("SelfExcluded", "Closed")).toMatchObject({ code: 403, tag: "SelfExcluded" })
  })

  it("hands a machine a failure as it is, and anything else (a defect) as a logged BadResponse", () => {
    const failure: Failure = { code: 422, message: "Odds changed", reason: "OddsChanged" }
    expect(asFailure(failure)).toBe(failure)
    const logged = vi.spyOn(console, "error").mockImplementation(() => {})
    const defect = new TypeError("x is undefined")
    expect(asFailure(defect)).toEqual({ code: 0, message: "Something went wrong. Please try again.", reason: "BadResponse" })
    expect(logged).toHaveBeenCalledWith(defect)
    logged.mockRestore()
    expect(messageOf({ code: 0, message: "offline", reason: "Unreachable" })).toBe("offline")
    expect(messageOf({ code: 500, message: "", reason: "ServerError" })).toBe("Something went wrong. Please try again.")
  })

  it("decodes the sockets' messages", () => {
    expect(Schema.is(UserChanged)({ reason: "deposit.approved", at: 1 })).toBe(true)
    expect(Schema.is(OddsBatch)({ markets: [], scores: [] })).toBe(true)
    expect(Schema.is(OddsBatch)({ markets: [{ marketId: "m" }], scores: [] })).toBe(false)
  })
})
