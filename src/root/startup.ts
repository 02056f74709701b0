import { fromPromise } from "xstate"
import type { Failure } from "../schema/errors.ts"
import { rejectCall } from "../schema/failures.ts"
import { startupCalls } from "../schema/guards.ts"
import { NOT_UNDERSTOOD, readAnswer, UNREACHABLE } from "../services/answer.ts"
import { readToken } from "../services/browserStorage.ts"
import { endSession, SESSION_ENDED } from "../services/sessionEnd.ts"
import { takeEarlyAnswer } from "./earlyAnswers.ts"

/**
 * The first page's calls: the startup pipeline, the session's user reload and
 * a casino lobby's games, made without the Effect runtime, so the home page
 * and the lobbies are usable before it loads
 * (docs/performance.md). Each answer is read as the `Api` service reads one
 * (src/services/answer.ts: the 401 rules, failures with their reasons) and
 * its data decoded by the guard compiled from the endpoint's schema
 * (src/schema/guards.ts). These calls show no toasts (SPEC section 8: startup
 * failures are only logged); a failure reaches the machine as plain `Failure` data.
 */

export type StartupCall = keyof typeof startupCalls

type DataOf<C extends StartupCall> = (typeof startupCalls)[C]["is"] extends (u: unknown) => u is { readonly data: infer D } ? D : never

const failure = (code: number, message: string, reason: Failure["reason"]): Failure => ({ code, message, reason })

interface CallOptions {
  readonly signal?: AbortSignal
  readonly query?: Readonly<Record<string, string>> | undefined
  /** The fetch's priority: "low" for an answer the page does not show, so it takes no bandwidth from what it does. */
  readonly priority?: RequestPriority
  /** Ask the server now, never take an answer the head script asked for at startup (a reload after a change). */
  readonly fresh?: boolean
}

export const startupCall = async <C extends StartupCall>(name: C, { signal, query, priority = "auto", fresh = false }: CallOptions = {}): Promise<DataOf<C>> => {
  const call = startupCalls[name]
  const search = query ? new URLSearchParams(query).toString() : ""
  const token = readToken()
  const headers: Record<string, string> = { accept: "application/json" }
  if (token) headers.authorization = `Bearer ${token}`
  const url = search ? `${call.path}?${search}` : call.path
  let response: Response
  try {
    response = await ((fresh ? undefined : takeEarlyAnswer(url, token)) ?? fetch(url, {
      method: call.method,
      headers,
      // The head script preloads the visitor's answers (src/root/headScript.ts), and a preload is matched by URL, mode and
      // credentials mode, not headers: a signed-in call (its answer may differ: no offers for a closed account)
      // must not take one, so it omits credentials (a bearer token needs no cookies).
      credentials: token ? "omit" : "same-origin",
      priority,
      ...(signal ? { signal } : {})
    }))
  } catch {
    throw failure(0, UNREACHABLE, "Unreachable")
  }
  const body: unknown = await response.json().catch(() => undefined)
  const reading = readAnswer(response.status, body, call.declared)
  switch (reading._tag) {
    case "SessionEnded":
      endSession(response.status)
      throw failure(reading.code, SESSION_ENDED, "SessionEnded")
    case "Success":
      if (call.is(body)) return body.data as DataOf<C>
      throw failure(0, NOT_UNDERSTOOD, "BadResponse")
    default:
      throw reading.failure
  }
}

/**
 * A machine's promise actor making `name`'s call (the name and the query may
 * depend on the actor's input; the priority is decided as the call goes out).
 * It fails as `rejectCall` says (a call its actor's stop aborted never answers).
 */
export const startupTask = <C extends StartupCall, I = void>(
  name: C | ((input: I) => C),
  options: {
    readonly query?: (input: I) => Readonly<Record<string, string>>
    readonly priority?: () => RequestPriority
    readonly fresh?: boolean
    /** What the call waits for before it goes out (the landing page's paint), if anything. */
    readonly after?: () => Promise<void> | undefined
    /** Runs once the call has answered or failed. */
    readonly settled?: () => void
  } = {}
) =>
  fromPromise<DataOf<C>, I>(async ({ input, signal }) => {
    await options.after?.()
    return startupCall(typeof name === "function" ? name(input) : name, {
      signal,
      query: options.query?.(input),
      priority: options.priority?.() ?? "auto",
      fresh: options.fresh ?? false
    }).finally(options.settled).catch(rejectCall(signal))
  })
