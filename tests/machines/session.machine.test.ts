import { describe, expect, it, vi } from "vitest"
import { createActor, fromPromise, type SnapshotFrom } from "xstate"
import { type SessionEvent, sessionMachine } from "../../src/machines/session.machine.ts"
import { player, sessionWorld, signInEffects } from "./fixtures.ts"
import { entered, expectFullCoverage, left, recordFlows, replayPaths, silentCallback } from "./harness.ts"
import { type Effect, recorder, settled, type WalkStep } from "./walk.ts"

type Session = SnapshotFrom<typeof sessionMachine>

/**
 * Signed in means a token and a user, the user's channel and the wallet
 * switch running, the wallet the user's; signed out means neither token nor
 * user; restoring has the stored token and waits for its user.
 */
export const invariants = (s: Session) => {
  const { token, user } = s.context
  expect(s.hasTag("signedIn")).toBe(s.matches("LoggedIn"))
  if (s.matches("LoggedIn") || s.matches("LoggingOut")) expect(token !== undefined && user !== undefined).toBe(true)
  if (s.matches("LoggedOut")) expect({ token, user }).toEqual({ token: undefined, user: undefined })
  if (s.matches("Restoring")) expect(token !== undefined && user === undefined).toBe(true)
  expect(s.children.userChannel !== undefined).toBe(s.matches("LoggedIn"))
  expect(s.children.wallet !== undefined).toBe(s.matches("LoggedIn"))
  if (s.matches({ LoggedIn: "Idle" })) expect(s.children.wallet!.getSnapshot().context.wallet).toBe(user!.wallet)
}

const loggedOut: Array<Effect> = [
  { kind: "store", what: "session cleared" },
  { kind: "do", name: "go home" },
  { kind: "toast", level: "success", message: "Logged Out", subMessage: "Where Real Life Happens" }
]

/** SPEC section 4: what signing in, a token rotation, a user reload and logging out do to storage, the socket, the server and the player. */
const effects = (step: WalkStep<Session>): Array<Effect> => {
  const { before, event, after } = step
  const out: Array<Effect> = []
  if (entered(step, "LoggedOut")) out.push({ kind: "do", name: "socket token", params: { token: undefined } })
  if (left(step, "LoggedIn")) out.push({ kind: "unwatch", name: "user channel" })
  if (event.type === "session.signedIn" && before?.matches("LoggedOut")) out.push(...signInEffects(event.token, event.user, event.remember))
  else if (entered(step, "LoggedIn")) {
    out.push({ kind: "do", name: "socket token", params: { token: after.context.token } }, { kind: "watch", name: "user channel", input: { userId: after.context.user!.id } })
  }
  if (event.type === "session.tokenChanged" && before?.matches("LoggedIn")) {
    expect(after.context.token).toBe(event.token)
    out.push({ kind: "store", what: "token", value: { token: event.token } }, { kind: "do", name: "socket token", params: { token: event.token } })
  }
  if (event.type === "user.changed" && after.matches({ LoggedIn: "Refreshing" })) {
    // The socket's bet news is counted (open lists of bets load again), and its message told.
    expect(after.context.betsChanged).toBe(before!.context.betsChanged + (event.reason?.startsWith("bet") ? 1 : 0))
    if (event.message) out.push({ kind: "toast", level: "success", message: event.message })
    out.push({ kind: "call", endpoint: "GET /api/v1/getUserData" })
  }
  if (settled(step, "fetchUser") === "done") {
    expect(after.context.user).toEqual(event.output)
    out.push({ kind: "store", what: "user", value: { user: event.output } })
  }
  if (event.type === "session.logout" && before?.matches("LoggedIn")) out.push({ kind: "call", endpoint: "POST /identity/user/logout", body: { user_id: before.context.user!.id } })
  // The session ends whatever the server answered.
  if (settled(step, "logout")) out.push(...loggedOut)
  return out
}

const actions = () => ({
  saveSession: vi.fn(),
  saveUser: vi.fn(),
  saveToken: vi.fn(),
  clearSession: vi.fn(),
  authenticateSocket: vi.fn(),
  goHome: vi.fn(),
  notifyLoggedOut: vi.fn(),
  tellPlayer: vi.fn()
})

describe("session machine (model-based)", () => {
  it("covers every state and transition, with and without a stored token, checking storage, socket, calls and toasts at every step", () => {
    const world = recorder()
    const coverage = replayPaths(sessionMachine, {
      input: { token: "stored" },
      from: [{ label: "start without a stored token", input: { token: undefined } }],
      world,
      ...sessionWorld(world),
      invariants,
      effects,
      // The reloaded user plays from the bonus wallet now: the wallet switch must follow.
      outputs: { fetchUser: [{ ...player, wallet: 2, balance: 250 }], logout: [undefined] },
      events: {
        "session.loaded": [{ type: "session.loaded", user: player }],
        "session.signedIn": [{ type: "session.signedIn", token: "new", user: player, remember: true }],
        "session.tokenChanged": [{ type: "session.tokenChanged", token: "rotated" }],
        "user.changed": [{ type: "user.changed" }, { type: "user.changed", reason: "bet.matched", message: "India: Matched ₹200.00 at 1.78" }]
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
      const actor = createActor(sessionMachine.provide({ actions: spies, actors: { logout, userChannel: silentCallback() } }), { input: { token: "t" } }).start()
      actor.send({ type: "session.loaded", user: player })
      expect(actor.getSnapshot().hasTag("signedIn")).toBe(true)
      actor.send({ type: "session.logout" })
      await new Promise((resolve) => setTimeout(resolve, 0))
      expect(actor.getSnapshot().matches("LoggedOut")).toBe(true)
      expect(actor.getSnapshot().context).toEqual({ token: undefined, user: undefined, betsChanged: 0 })
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
      sessionMachine.provide({ actions: spies, actors: { userChannel: channel, fetchUser: fromPromise(async () => richer) } }),
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
  fromCallback<SessionEvent, { userId: string }>(({ sendBack }) => {
    setup(sendBack as (event: { type: "user.changed" }) => void)
    return () => {}
  })
