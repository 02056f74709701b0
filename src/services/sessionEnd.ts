import { clearSession } from "./browserStorage.ts"
import { navigator } from "./navigator.ts"

/**
 * What a 401 does (SPEC section 8), in one place for the `Api` service and the
 * first page's calls (src/root/startup.ts): the stored session goes, the
 * player is sent to sign in again (HTTP 401) or home (meta code 401), and the
 * session machine hears it.
 */

type Listener = (reason: "expired") => void
const listeners = new Set<Listener>()

/** The session machine hears here that the server ended the session (any 401). */
export const onSessionEnded = (listener: Listener) => {
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}

export const SESSION_ENDED = "Your session has ended. Please log in again."

export const endSession = (httpStatus: number) => {
  clearSession()
  navigator.go(httpStatus === 401 ? "/login" : "/")
  for (const listener of listeners) listener("expired")
}
