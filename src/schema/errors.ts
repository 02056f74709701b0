import { Schema } from "effect"

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
  "PayloadTooLarge", // 413
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
  // Sign-in.
  "InvalidCredentials",
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

/**
 * The tag of an answer as the client reads it: a tag this build knows, or
 * the code's default (a newer server may send a tag an open page predates).
 */
export const readTag = (code: number, sent: string | undefined): ErrorTag => (isErrorTag(sent) ? sent : defaultTag(code))
