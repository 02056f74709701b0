import { Context, Schema } from "effect"

/**
 * Why a call failed, as a machine-readable tag the server sends in the
 * envelope beside the spec's `meta.code` and `meta.message`
 * (`{ meta: { code: 422, message: "Odds changed…", error: "OddsChanged" } }`).
 * Machines guard on the tag, never on the message text, which is for people
 * and may be reworded. A capability that needs a new reason adds it here.
 */
export const ErrorTag = Schema.Literals([
  // Generic reasons, one per status code (the default tag of a code).
  "InvalidInput", // 400: a field fails its schema or a rule of SPEC section 5
  "SessionEnded", // 401: unknown, expired or revoked token
  "Forbidden", // 403: the role may not do this
  "NotFound", // 404
  "Conflict", // 409: the thing changed or exists already
  "PayloadTooLarge", // 413: the body is over its limit (1 MB, 8 MB where a screenshot travels)
  "UnsupportedMediaType", // 415: a body that is not JSON
  "Refused", // 422: a business rule with no tag of its own
  "RateLimited", // 429
  "ServerError", // 500
  "Unavailable", // 503
  // Betting.
  "OddsChanged",
  "MarketSuspended",
  "MarketClosed",
  "StakeOutOfRange",
  // Money.
  "InsufficientBalance",
  // Player protection and the operator's compliance switches (docs/protection.md).
  "LimitReached", // 422: a deposit, bet or casino stake would pass one of the player's limits
  "CoolingOff", // 422: a raised or removed limit cannot be confirmed yet
  "TimedOut", // 403: the player is taking a break: no bets, casino or deposits until it ends
  "SelfExcluded", // 403: closed by self-exclusion (also after it ends, until the player returns)
  "RegionBlocked", // 403: the operator does not serve the player's state
  "DepositsClosed", // 422: real-money deposits are switched off (the site runs on demo credit)
  // Sign-in, sign-up and passwords.
  "InvalidCredentials",
  "WeakPassword", // 400: a common or easily guessed new password
  "CodesBlocked", // 429: too many wrong codes for this number today: its codes are refused for 24 h
  // Limits on what one player may file (pending deposit requests, screenshot bytes a day).
  "QuotaExceeded", // 429
  // Only the client makes these: the server was not reached, or its answer was not understood.
  "Unreachable",
  "BadResponse"
])
export type ErrorTag = typeof ErrorTag.Type

const isErrorTag = Schema.is(ErrorTag)

/** The tag a status code means when nothing more specific is said. */
export const defaultTag = (code: number): ErrorTag => {
  switch (code) {
    case 0:
      return "Unreachable"
    case 400:
      return "InvalidInput"
    case 401:
      return "SessionEnded"
    case 403:
      return "Forbidden"
    case 404:
      return "NotFound"
    case 409:
      return "Conflict"
    case 413:
      return "PayloadTooLarge"
    case 415:
      return "UnsupportedMediaType"
    case 422:
      return "Refused"
    case 429:
      return "RateLimited"
    case 503:
      return "Unavailable"
    default:
      return code >= 500 ? "ServerError" : "Refused"
  }
}

/** The HTTP status (and `meta.code`) a reason is sent with; 0 for the client's own. */
export const statusOf = (tag: ErrorTag): number => {
  switch (tag) {
    case "InvalidInput":
      return 400
    case "SessionEnded":
      return 401
    case "Forbidden":
    // An account closed to play (docs/protection.md).
    case "TimedOut":
    case "SelfExcluded":
    case "RegionBlocked":
      return 403
    case "NotFound":
      return 404
    case "Conflict":
      return 409
    case "PayloadTooLarge":
      return 413
    case "UnsupportedMediaType":
      return 415
    case "WeakPassword":
      return 400
    case "RateLimited":
    case "CodesBlocked":
    case "QuotaExceeded":
      return 429
    case "ServerError":
      return 500
    case "Unavailable":
      return 503
    case "Unreachable":
    case "BadResponse":
      return 0
    default:
      // Refused and the business rules with a tag of their own.
      return 422
  }
}

/** Why a closed account is refused play, deposits and bonuses (withdrawals stay open): docs/protection.md. */
export const CLOSED_TO_PLAY = ["TimedOut", "SelfExcluded", "RegionBlocked"] as const satisfies ReadonlyArray<ErrorTag>

/**
 * The reasons an endpoint answers besides success, declared where the
 * endpoint is (`.annotate(Reasons, ["OddsChanged", …])`): the OpenAPI
 * document lists them under their status codes (src/schema/openapi.ts), and
 * the client passes a machine only a reason the endpoint declares (or the
 * generic one of the code), so a machine's guards are part of the contract.
 */
export class Reasons extends Context.Service<Reasons, ReadonlyArray<ErrorTag>>()("khel/Reasons") {}

/**
 * The tag of an answer as the client reads it: a tag this build knows and
 * the endpoint declares, or the code's default (a newer server may send a tag
 * an open page predates).
 */
export const readTag = (code: number, sent: string | undefined, declared?: ReadonlyArray<ErrorTag>): ErrorTag => {
  const generic = defaultTag(code)
  if (!isErrorTag(sent)) return generic
  return sent === generic || declared === undefined || declared.includes(sent) ? sent : generic
}

/**
 * A failed call as machines receive it: plain data (no class instance), so
 * an error event can be logged, inspected and replayed like any other event.
 * The composition root turns the client's `ApiFailure` into this shape.
 */
export const Failure = Schema.Struct({ code: Schema.Int, message: Schema.String, reason: ErrorTag })
export type Failure = typeof Failure.Type

const decodeFailure = Schema.decodeUnknownOption(Failure)
const hasMessage = Schema.is(Schema.Struct({ message: Schema.String }))

/** The reason of an actor's error when it is a failure of a call; undefined for anything else (a bug). */
export const reasonOf = (error: unknown): ErrorTag | undefined => {
  const failure = decodeFailure(error)
  return failure._tag === "Some" ? failure.value.reason : undefined
}

/** What to tell the player about an actor's error: the server's message, or `fallback`. */
export const messageOf = (error: unknown, fallback = "Something went wrong. Please try again."): string =>
  hasMessage(error) && error.message !== "" ? error.message : fallback
