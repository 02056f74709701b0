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
  "PricesContradict", // 422: an operator's price would let a player win whatever happens across the event's markets
  "NotWaiting", // 422: nothing of the bet waits unmatched any more (it was matched, cancelled or settled)
  "NothingToCashOut", // 422: no matched position on the market, or one that pays the same whatever wins
  "CashOutUnavailable", // 422: a fancy market, or a ladder too thin to hedge the position
  // Money.
  "InsufficientBalance",
  "ReferenceUsed", // 409: a deposit's payment reference (UTR) is already on a pending or approved deposit
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
  // The operator's desk (docs/backoffice.md).
  "AlreadyDecided", // 409: another staff member decided the request (or approval) first; the message names them
  "ClaimedByOther", // 409: another staff member is working the request; the message names them
  "SecondApproverNeeded", // 422: above the DIRECTOR's threshold a second staff member must approve (four eyes)
  "OwnProposal", // 403: the staff member asked for this themselves: a different one must approve it (four eyes)
  // Only the client makes these: the server was not reached, or its answer was not understood; the browser refused
  // the site's notifications (the player said no, now or before).
  "Unreachable",
  "BadResponse",
  "NotificationsBlocked"
])
export type ErrorTag = typeof ErrorTag.Type

/**
 * The reasons an endpoint answers besides success, declared where the
 * endpoint is (`.annotate(Reasons, ["OddsChanged", …])`): the OpenAPI
 * document lists them under their status codes (src/schema/openapi.ts), and
 * the client passes a machine only a reason the endpoint declares (or the
 * generic one of the code), so a machine's guards are part of the contract.
 */
export class Reasons extends Context.Service<Reasons, ReadonlyArray<ErrorTag>>()("khel/Reasons") {}

/**
 * A failed call as machines receive it: plain data (no class instance), so
 * an error event can be logged, inspected and replayed like any other event.
 * The composition root turns the client's `ApiFailure` into this shape.
 */
export const Failure = Schema.Struct({ code: Schema.Int, message: Schema.String, reason: ErrorTag })
export type Failure = typeof Failure.Type

// The reading of reasons and failures is plain code the first page runs without Effect (src/schema/failures.ts).
export { CLOSED_TO_PLAY, defaultTag, messageOf, readTag, statusOf } from "./failures.ts"
