import { describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import { sessionMachine } from "../../src/machines/session.machine.ts"
import { player } from "./fixtures.ts"
import { expectFullCoverage, recordFlows, replayPaths, silentCallback } from "./harness.ts"

const actions = () => ({
  saveSession: vi.fn(),
  saveUser: vi.fn(),
  saveToken: vi.fn(),
  clearSession: vi.fn(),
  authenticateSocket: vi.fn(),
  goHome: vi.fn(),
  notifyLoggedOut: vi.fn()
})

describe("session machine (model-based)", () => {
  it("covers every state and transition, with and without a stored token", () => {
    const coverage = replayPaths(sessionMachine as never, {
      input: { token: "stored" },
      from: [{ label: "start without a stored token", input: { token: undefined } }],
      actions: actions(),
      actors: { userChannel: silentCallback() },
      outputs: { fetchUser: [player], logout: [undefined] },
      events: {
        "session.loaded": [{ type: "session.loaded", user: player }],
        "session.signedIn": [{ type: "session.signedIn", token: "new", user: player, remember: true }],
        "session.tokenChanged": [{ type: "session.tokenChanged", token: "rotated" }]
      },
      serialize: (s) => JSON.stringify([s.value, s.context.token !== undefined])
    })
    expectFullCoverage(coverage)
    recordFlows("session", "The player's session: restore a stored token during start-up, sign in, live user reloads from the user's socket event, token rotation (password change), expiry on any 401, logout.", coverage)
  })

  it("logs out: tells the server, clears storage, goes home and says so, even when the server fails", async () => {
    for (const outcome of ["ok", "fail"] as const) {
      const spies = actions()
      const logout = fromPromise<void, { userId: string | undefined }>(async ({ input }) => {
        expect(input.userId).toBe(player.id)
        if (outcome === "fail") throw new Error("offline")
      })
      const actor = createActor(sessionMachine.provide({ actions: spies, actors: { logout, userChannel: silentCallback() as never } }), { input: { token: "t" } }).start()
      actor.send({ type: "session.loaded", user: player })
      expect(actor.getSnapshot().hasTag("signedIn")).toBe(true)
      actor.send({ type: "session.logout" })
      await new Promise((resolve) => setTimeout(resolve, 0))
      expect(actor.getSnapshot().matches("LoggedOut")).toBe(true)
      expect(actor.getSnapshot().context).toEqual({ token: undefined, user: undefined })
      expect(spies.clearSession).toHaveBeenCalledTimes(1)
      expect(spies.goHome).toHaveBeenCalledTimes(1)
      expect(spies.notifyLoggedOut).toHaveBeenCalledTimes(1)
      actor.stop()
    }
  })

  it("reloads the user when the user's socket event arrives, and keeps the last answer", async () => {
    const richer = { ...player, balance: 250 }
    let emit: () => void = () => {}
    const channel = fromCallbackStub((send) => {
      emit = () => send({ type: "user.changed" })
    })
    const spies = actions()
    const actor = createActor(
      sessionMachine.provide({ actions: spies, actors: { userChannel: channel as never, fetchUser: fromPromise(async () => richer) } }),
      { input: { token: undefined } }
    ).start()
    actor.send({ type: "session.signedIn", token: "t", user: player, remember: true })
    expect(spies.saveSession).toHaveBeenCalledWith(expect.anything(), { token: "t", user: player, remember: true })
    emit()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(actor.getSnapshot().context.user?.balance).toBe(250)
    expect(spies.saveUser).toHaveBeenCalledTimes(1)
    actor.stop()
  })
})

import { fromCallback } from "xstate"
const fromCallbackStub = (setup: (send: (event: { type: "user.changed" }) => void) => void) =>
  fromCallback(({ sendBack }) => {
    setup(sendBack as (event: { type: "user.changed" }) => void)
    return () => {}
  })
