import { describe, expect, it, vi } from "vitest"
import { createActor, fromPromise, type SnapshotFrom } from "xstate"
import { switchWalletPayload } from "../../src/root/requests.ts"
import { WALLET_CHANGED } from "../../src/schema/wallet.ts"
import { walletMachine } from "../../src/machines/wallet.machine.ts"
import type { Failure } from "../../src/schema/errors.ts"
import type { User, WalletCode } from "../../src/schema/user.ts"
import { player } from "./fixtures.ts"
import { expectFullCoverage, recordFlows, replayPaths } from "./harness.ts"
import { type Effect, hosted, recorder, settled, type WalkStep } from "./walk.ts"

const refused: Failure = { code: 422, message: "The wallet cannot change while a bet is open.", reason: "Refused" }
const onWallet = (wallet: WalletCode): User => ({ ...player, wallet })

type Wallet = SnapshotFrom<typeof walletMachine>

/** A wallet is 1 or 2; a target exists only while switching, and it is the other wallet. */
export const invariants = (s: Wallet) => {
  expect([1, 2]).toContain(s.context.wallet)
  expect(s.hasTag("busy")).toBe(s.matches("Switching"))
  if (s.matches("Switching")) expect(s.context.target).toBe(s.context.wallet === 1 ? 2 : 1)
  else expect(s.context.target).toBeUndefined()
}

/** SPEC section 4: the other wallet calls PUT /wallet { selectedWallet }; success updates it, says 'Wallet Changed' and reloads the user. */
const effects = (step: WalkStep<Wallet>): Array<Effect> => {
  const { before, event, after } = step
  if (event.type === "wallet.switch" && after.matches("Switching") && before?.matches("Idle")) {
    return [{ kind: "call", endpoint: "PUT /api/v1/wallet", body: { selectedWallet: event.wallet } }]
  }
  if (event.type === "wallet.sync") expect(after.context.wallet).toBe(event.wallet)
  if (settled(step, "switchWallet") === "done") {
    expect(after.context.wallet).toBe(event.output.wallet)
    return [
      { kind: "toast", level: "success", message: "Wallet Changed", subMessage: "Your Money, Your Way" },
      { kind: "do", name: "tell parent", params: { type: "user.changed" } }
    ]
  }
  if (settled(step, "switchWallet") === "error") {
    expect(after.context.wallet).toBe(before!.context.wallet)
    // The server's message, once.
    return [{ kind: "toast", level: "warning", message: refused.message }]
  }
  return []
}

describe("wallet machine (model-based)", () => {
  it("covers every state and transition from either wallet, checking the call, the toast and the user reload", () => {
    const world = recorder()
    const coverage = replayPaths(walletMachine, {
      input: { wallet: 1 },
      from: [{ label: "start on the bonus wallet", input: { wallet: 2 } }],
      world,
      host: hosted(world),
      graphActions: { userChanged: () => {} },
      actors: { switchWallet: world.call("PUT /api/v1/wallet", switchWalletPayload) },
      actions: { notifyChanged: world.toast("success", WALLET_CHANGED), toastFailure: world.toastFailure },
      invariants,
      effects,
      outputs: { switchWallet: [onWallet(1), onWallet(2)] },
      errors: { switchWallet: [refused] },
      events: {
        "wallet.switch": [{ type: "wallet.switch", wallet: 1 }, { type: "wallet.switch", wallet: 2 }],
        "wallet.sync": [{ type: "wallet.sync", wallet: 1 }, { type: "wallet.sync", wallet: 2 }]
      },
      serialize: (s) => JSON.stringify([s.value, s.context.wallet])
    })
    expectFullCoverage(coverage)
    recordFlows("wallet", "The wallet switch: 1 plays from the main balance, 2 from the bonus wallet. Choosing the other wallet calls the server and shows 'Wallet Changed'; choosing the active one does nothing; user data keeps it in step.", coverage)
  })
})

describe("wallet machine behaviour", () => {
  it("switches through the server, then says 'Wallet Changed' and has the session reload the user", async () => {
    const calls: Array<WalletCode> = []
    const notifyChanged = vi.fn()
    const userChanged = vi.fn()
    const actor = createActor(
      walletMachine.provide({
        actors: { switchWallet: fromPromise(async ({ input }: { input: { wallet: WalletCode } }) => (calls.push(input.wallet), onWallet(input.wallet))) },
        actions: { notifyChanged, userChanged }
      }),
      { input: { wallet: 1 } }
    ).start()
    actor.send({ type: "wallet.switch", wallet: 2 })
    expect(actor.getSnapshot().hasTag("busy")).toBe(true)
    await vi.waitFor(() => expect(actor.getSnapshot().matches("Idle")).toBe(true))
    expect(actor.getSnapshot().context.wallet).toBe(2)
    expect(calls).toEqual([2])
    expect(notifyChanged).toHaveBeenCalledTimes(1)
    expect(userChanged).toHaveBeenCalledTimes(1)
  })

  it("does nothing when the active wallet is chosen: no call, no toast", () => {
    const switchWallet = vi.fn(async () => onWallet(1))
    const notifyChanged = vi.fn()
    const actor = createActor(walletMachine.provide({ actors: { switchWallet: fromPromise(switchWallet) }, actions: { notifyChanged, userChanged: () => {}, toastFailure: () => {} } }), { input: { wallet: 1 } }).start()
    actor.send({ type: "wallet.switch", wallet: 1 })
    expect(actor.getSnapshot().matches("Idle")).toBe(true)
    expect(switchWallet).not.toHaveBeenCalled()
    expect(notifyChanged).not.toHaveBeenCalled()
  })

  it("keeps the wallet when the server refuses", async () => {
    const notifyChanged = vi.fn()
    const actor = createActor(
      walletMachine.provide({ actors: { switchWallet: fromPromise(async () => Promise.reject(new Error("no"))) }, actions: { notifyChanged, userChanged: () => {}, toastFailure: () => {} } }),
      { input: { wallet: 1 } }
    ).start()
    actor.send({ type: "wallet.switch", wallet: 2 })
    await vi.waitFor(() => expect(actor.getSnapshot().matches("Idle")).toBe(true))
    expect(actor.getSnapshot().context).toEqual({ wallet: 1, target: undefined })
    expect(notifyChanged).not.toHaveBeenCalled()
  })
})
