import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

/** Every source file under `dir`. */
const sources = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : /\.tsx?$/.test(entry.name) ? [join(dir, entry.name)] : []
  )

describe("the player site's and the desk's views", () => {
  // A view that tests a state path breaks when the machine's tree changes; tags and exported selectors do not.
  it("read machines through tags and exported selectors, never state paths", () => {
    const offending = [...sources("src/views"), ...sources("src/desk/views")].filter((file) => /\.matches\(/.test(readFileSync(file, "utf8")))
    expect(offending).toEqual([])
  })
})
