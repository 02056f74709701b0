import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { createNoticeStore, TOAST_AUTOCLOSE_MS, TOASTS_AT_ONCE } from "../../src/services/noticeStore.ts"

describe("the toast queue", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("shows at most two at once, the newest, so a burst stays readable", () => {
    const store = createNoticeStore()
    store.show("warning", "Please enter amount")
    store.show("warning", "Min Deposit amount is 100")
    store.show("success", "Deposit request submitted")
    expect(TOASTS_AT_ONCE).toBe(2)
    expect(store.snapshot().map((n) => n.message)).toEqual(["Min Deposit amount is 100", "Deposit request submitted"])
  })

  it("shows the same message once, and closes each after 3 s", () => {
    const store = createNoticeStore()
    store.show("warning", "Please enter amount")
    vi.advanceTimersByTime(1000)
    store.show("warning", "Please enter amount")
    expect(store.snapshot()).toHaveLength(1)
    vi.advanceTimersByTime(TOAST_AUTOCLOSE_MS - 1)
    expect(store.snapshot()).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(store.snapshot()).toEqual([])
  })
})
