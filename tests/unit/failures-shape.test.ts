import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

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
