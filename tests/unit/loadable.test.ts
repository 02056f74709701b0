import { describe, expect, it } from "vitest"
import { loadable } from "../../src/views/loadable.ts"

/** A load the test settles by hand, counting how often it was started. */
const manual = <T>() => {
  const started: Array<{ resolve: (value: T) => void; reject: (error: unknown) => void }> = []
  const start = () => new Promise<T>((resolve, reject) => void started.push({ resolve, reject }))
  return { start, started }
}

describe("loadable (a page's chunk, the odds books: waited for without suspending)", () => {
  it("is undefined until loaded, then tells its subscribers once and holds the value", async () => {
    const { start, started } = manual<string>()
    const page = loadable(start)
    let heard = 0
    const unsubscribe = page.subscribe(() => heard++)
    expect(page.get()).toBeUndefined()
    expect(started).toHaveLength(1)
    started[0]!.resolve("Event page")
    await page.load()
    expect(page.get()).toBe("Event page")
    expect(heard).toBe(1)
    unsubscribe()
  })

  it("starts one load however many ask (a preload, then the page and a second view)", async () => {
    const { start, started } = manual<number>()
    const books = loadable(start)
    const preloaded = books.load()
    books.subscribe(() => {})
    books.subscribe(() => {})
    expect(books.load()).toBe(preloaded)
    expect(started).toHaveLength(1)
    started[0]!.resolve(7)
    await expect(preloaded).resolves.toBe(7)
    // Loaded: a later view reads it at once and starts nothing.
    books.subscribe(() => {})
    expect(books.get()).toBe(7)
    expect(started).toHaveLength(1)
  })

  it("an unsubscribed view is not told", async () => {
    const { start, started } = manual<string>()
    const page = loadable(start)
    let heard = 0
    page.subscribe(() => heard++)()
    started[0]!.resolve("loaded")
    await page.load()
    expect(heard).toBe(0)
    expect(page.get()).toBe("loaded")
  })

  it("a failed load keeps the loading line and the next one to ask tries again", async () => {
    const { start, started } = manual<string>()
    const page = loadable(start)
    const first = page.load()
    started[0]!.reject(new Error("chunk lost"))
    await expect(first).rejects.toThrow("chunk lost")
    expect(page.get()).toBeUndefined()
    const second = page.load()
    expect(second).not.toBe(first)
    expect(started).toHaveLength(2)
    started[1]!.resolve("Event page")
    await expect(second).resolves.toBe("Event page")
    expect(page.get()).toBe("Event page")
  })
})
