import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { createActor } from "xstate"
import { describe, expect, it, vi } from "vitest"
import { lazyTask } from "../../src/root/lazyTask.ts"
import type { Failure } from "../../src/schema/errors.ts"
import { failureTone } from "../../src/schema/failures.ts"
import { NOT_UNDERSTOOD, readAnswer, UNREACHABLE } from "../../src/services/answer.ts"

/** Every source file under `dir`. */
const sources = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : /\.tsx?$/.test(entry.name) ? [join(dir, entry.name)] : []
  )

/** The HTTP edge: handlers (`http.ts`, `*Http.ts`) and the server's middleware (`server/edge`). */
const isEdge = (file: string) => /(^|\/)http\.ts$|Http\.ts$/.test(file) || file.startsWith(join("server", "edge"))

describe("the server's failures", () => {
  // A service names why it refuses (refuse(reason, message)); the status a reason is sent with is statusOf's.
  it("pick no HTTP status outside the HTTP edge", () => {
    const picksStatus = (text: string) =>
      /new ApiError\(\s*\{/.test(text) || /\b(?:Effect\.fail|fail)\(\s*[1-5]\d\d\b/.test(text)
    const offending = sources("server").filter((file) => !isEdge(file) && picksStatus(readFileSync(file, "utf8")))
    expect(offending).toEqual([])
  })
})

describe("the toast of a failed call (failureTone)", () => {
  const envelope = (code: number, error?: string) => ({ meta: { code, message: `answered ${code}`, ...(error ? { error } : {}) }, data: null })
  const tone = (status: number, body: unknown) => {
    const reading = readAnswer(status, body, undefined)
    return reading._tag === "Refused" || reading._tag === "Broken" ? [reading._tag, failureTone(reading.failure)] : [reading._tag, undefined]
  }

  it("is a warning for a refusal the server explains, an error for an HTTP error, none for an ended session", () => {
    expect(tone(422, envelope(422, "OddsChanged"))).toEqual(["Refused", "warning"])
    expect(tone(409, envelope(409))).toEqual(["Refused", "warning"])
    expect(tone(200, envelope(403))).toEqual(["Refused", "warning"])
    expect(tone(500, envelope(500))).toEqual(["Broken", "error"])
    expect(tone(503, undefined)).toEqual(["Broken", "error"])
    expect(tone(401, envelope(401))).toEqual(["SessionEnded", undefined])
    expect(failureTone({ code: 401, message: "ended", reason: "SessionEnded" })).toBeUndefined()
  })

  it("is an error when the server was not reached or not understood", () => {
    expect(failureTone({ code: 0, message: UNREACHABLE, reason: "Unreachable" })).toBe("error")
    expect(failureTone({ code: 0, message: NOT_UNDERSTOOD, reason: "BadResponse" })).toBe("error")
  })
})

describe("a call's failure as machines read it", () => {
  // Machines declare it a Failure (CallFailed, src/machines/calls.ts): a call actor the root provides rejects with nothing else.
  it("is a Failure from the root's call actors, a defect of the client's code included", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {})
    const refusal: Failure = { code: 422, message: "Odds changed", reason: "OddsChanged" }
    const failing = (error: unknown) =>
      lazyTask(() => Promise.resolve({ call: (_: void, _signal: AbortSignal): Promise<never> => Promise.reject(error) }), (module) => module.call)
    const errorOf = (error: unknown) =>
      new Promise((resolve) => {
        const actor = createActor(failing(error))
        actor.subscribe({ error: resolve })
        actor.start()
      })
    expect(await errorOf(refusal)).toBe(refusal)
    expect(await errorOf(new TypeError("x is undefined"))).toEqual({ code: 0, message: "Something went wrong. Please try again.", reason: "BadResponse" })
    expect(logged).toHaveBeenCalledOnce()
    logged.mockRestore()
  })
})
