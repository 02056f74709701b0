import type { ErrorTag, Failure } from "./errors.ts"
import { isErrorTag, isFailure } from "./guards.ts"

/**
 * Reading the reasons of src/schema/errors.ts: what a status code means, how
 * the client reads a sent tag and a machine an actor's error. Plain code over
 * the generated guards (src/schema/guards.ts), so the first page, which runs
 * before the Effect runtime loads, reads failures the same way. Machines
 * import these from here, not through errors.ts: that module builds schemas,
 * and a route chunk importing it carries Effect's Schema (37 KB gzip) before
 * it can paint.
 */

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
    // Four eyes: the one who asked is not the second pair.
    case "OwnProposal":
      return 403
    case "NotFound":
      return 404
    case "Conflict":
    case "ReferenceUsed":
    case "AlreadyDecided":
    case "ClaimedByOther":
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
    case "NotificationsBlocked":
      return 0
    default:
      // Refused and the business rules with a tag of their own.
      return 422
  }
}

/** Why a closed account is refused play, deposits and bonuses (withdrawals stay open): docs/protection.md. */
export const CLOSED_TO_PLAY = ["TimedOut", "SelfExcluded", "RegionBlocked"] as const satisfies ReadonlyArray<ErrorTag>

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

const SOMETHING_WRONG = "Something went wrong. Please try again."

/**
 * What a call actor provided to a machine rejects with (src/machines/calls.ts
 * `CallFailed`): a `Failure` as it is; anything else is a defect of the
 * client's own code, logged, and told to the machine as an answer not
 * understood, so the player sees the flow fail rather than hang.
 */
export const asFailure = (error: unknown): Failure => {
  if (isFailure(error)) return error
  console.error(error)
  return { code: 0, message: SOMETHING_WRONG, reason: "BadResponse" }
}

/**
 * How a call actor rejects (`.catch(rejectCall(signal))`): with its
 * `Failure`, as `asFailure` says; a call its actor's stop aborted never
 * answers (React's strict mode revives a stopped actor in the same state and
 * calls again; the aborted call must not fail it).
 */
export const rejectCall = (signal: AbortSignal) => (error: unknown): Promise<never> =>
  signal.aborted ? new Promise<never>(() => {}) : Promise.reject(asFailure(error))

/** What to tell the player about a failed call: the server's message, or `fallback` when it sent none. */
export const messageOf = (failure: Failure, fallback = SOMETHING_WRONG): string => failure.message || fallback

/**
 * The toast a failed call shows (SPEC section 8): a refusal the server
 * explains (a code under 500) as a warning; an unreachable server, an answer
 * not understood or an HTTP error as an error. None for an ended session
 * (sessionEnd.ts takes the player away).
 */
export const failureTone = (failure: Failure): "warning" | "error" | undefined => {
  if (failure.reason === "SessionEnded") return undefined
  return failure.code > 0 && failure.code < 500 ? "warning" : "error"
}
