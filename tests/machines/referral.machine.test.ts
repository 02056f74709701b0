import { Schema } from "effect"
import { describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import { type ReferralContext, type Referrals, referralMachine } from "../../src/machines/referral.machine.ts"
import type { Written } from "../../src/machines/writes.ts"
import type { Failure } from "../../src/schema/errors.ts"
import { type ReferralTransaction, type ReferralUsers, type ReferralWeek, WeeklyQuery } from "../../src/schema/referral.ts"
import { callToasts, entered, expectFullCoverage, invokedWith, isIn, recordFlows, replayPaths, type Step } from "./harness.ts"

const weekly: Required<WeeklyQuery> = { startDate: "2025-11-08T18:30:00.000Z", endDate: "2026-01-03T18:29:59.999Z" }
const earned: ReferralUsers = {
  referralCode: "ABCDEFGH",
  refBonus: 100,
  users: [{ _id: "u2", name: "M*** I***", username: "meera12", joinedAt: "2026-01-01T00:00:00.000Z", reward: 100, rewardedAt: "2026-01-02T00:00:00.000Z", status: "rewarded" }],
  rule: { percent: 10, cap: 1_000, wagerTimes: 1 }
}
const claimed: ReferralUsers = { ...earned, refBonus: 0 }
const week: ReferralWeek = { startDate: "2025-12-27T18:30:00.000Z", endDate: "2026-01-03T18:29:59.999Z", rewards: 1, amount: 100 }
const reward: ReferralTransaction = { _id: "t1", kind: "referral_reward", description: "Referral reward: meera12", amount: 100, createdAt: "2026-01-02T00:00:00.000Z" }
const lists: Referrals = { users: earned, weeks: [week], transactions: [reward] }
const lost: Failure = { code: 0, message: "We could not reach the server. Check your connection and try again.", reason: "Unreachable" }
const refused: Failure = { code: 409, message: "There is no referral bonus to claim.", reason: "Conflict" }

/** The effects the walk saw, so each check is known to have run. */
const seen = new Set<string>()

const checkStep = (step: Step) => {
  const before: ReferralContext = step.before.context
  const context: ReferralContext = step.after.context
  expect(context.weekly).toEqual(weekly)
  if (isIn(step.after, "Claim.Claiming")) expect(context.key).toMatch(/^referral-claim-/)
  // Only a lost answer keeps the key for the retry.
  if (step.event.type === "xstate.error.actor.claim") expect(context.key !== undefined).toBe(step.event.error.reason === "Unreachable")

  // The lists are asked for with the weeks' startDate and endDate (SPEC section 7) when the page opens,
  // when asked, when money moves and after a claim.
  const loaded = invokedWith(step, "loadReferrals")
  if (["xstate.init", "referrals.reload", "balances.changed", "xstate.done.actor.claim"].includes(step.event.type)) {
    expect(loaded?.input).toEqual(context.weekly)
    expect(Object.keys(Schema.decodeUnknownSync(WeeklyQuery)(loaded?.input)).sort()).toEqual(["endDate", "startDate"])
    seen.add("load")
  } else expect(loaded).toBeUndefined()

  // A claim goes out only for a referral bonus there is, keeping the key of an unanswered one.
  const claim = invokedWith(step, "claim")
  if (entered(step, "Claim.Claiming")) {
    expect(before.referrals?.users.refBonus).toBeGreaterThan(0)
    expect(claim?.input).toEqual({ key: context.key })
    if (before.key !== undefined) expect(context.key).toBe(before.key)
    seen.add(before.key === undefined ? "claim" : "claim again")
  } else expect(claim).toBeUndefined()
  // Each load's and claim's failure is a toast, once; a claim's answer shows the server's message.
  expect(step.actions).toEqual(callToasts(step, ["loadReferrals", "claim"], ["claim"]))
}

describe("referral machine (model-based)", () => {
  it("covers every state and transition: the referral lists and the claim, with its refusals", () => {
    const coverage = replayPaths(referralMachine, {
      input: { weekly },
      outputs: { loadReferrals: [lists], claim: [{ data: claimed, message: "Referral bonus claimed" }] },
      actions: { toastSuccess: () => {}, toastFailure: () => {} },
      errors: { claim: [lost, refused] },
      serialize: (s) => JSON.stringify([s.value, s.context.referrals?.users.refBonus, s.context.key !== undefined]),
      check: checkStep
    })
    expectFullCoverage(coverage)
    expect([...seen].sort()).toEqual(["claim", "claim again", "load"])
    recordFlows(
      "referral",
      "/referral-bonus: the referral code and the friends who joined, the rewards by week (startDate and endDate sent), the referral transactions, and the claim of the referral bonus (an Idempotency-Key kept after a lost answer); the lists load again after a claim and when the player's money moves.",
      coverage
    )
  })
})

const harness = (claim: () => Promise<Written<ReferralUsers>>) => {
  const asked: Array<Required<WeeklyQuery>> = []
  const keys: Array<string> = []
  const actor = createActor(
    referralMachine.provide({
      actors: {
        loadReferrals: fromPromise(async ({ input }: { input: Required<WeeklyQuery> }) => (asked.push(input), lists)),
        claim: fromPromise(({ input }: { input: { key: string } }) => (keys.push(input.key), claim()))
      },
      actions: { toastSuccess: () => {}, toastFailure: () => {} }
    }),
    { input: { weekly } }
  ).start()
  const ready = () => vi.waitFor(() => expect(actor.getSnapshot().matches({ Lists: "Ready" })).toBe(true))
  return { actor, asked, keys, ready }
}

describe("referral machine behaviour", () => {
  it("asks for the weeks with startDate and endDate (SPEC section 7)", async () => {
    const { actor, asked, ready } = harness(async () => ({ data: claimed, message: "Referral bonus claimed" }))
    await ready()
    expect(asked).toEqual([weekly])
    expect(actor.getSnapshot().context.referrals).toEqual(lists)
  })

  it("claims the referral bonus with an Idempotency-Key, then lists everything again", async () => {
    const { actor, asked, keys, ready } = harness(async () => ({ data: claimed, message: "Referral bonus claimed" }))
    await ready()
    actor.send({ type: "referral.claim" })
    expect(actor.getSnapshot().hasTag("busy")).toBe(true)
    await vi.waitFor(() => expect(asked).toHaveLength(2))
    expect(keys).toEqual([expect.stringMatching(/^referral-claim-/)])
    expect(actor.getSnapshot().context.key).toBeUndefined()
  })

  it("claims nothing while there is no referral bonus", () => {
    const { actor, keys } = harness(async () => ({ data: claimed, message: "Referral bonus claimed" }))
    actor.send({ type: "referral.claim" })
    expect(actor.getSnapshot().matches({ Claim: "Idle" })).toBe(true)
    expect(keys).toEqual([])
  })

  it("keeps the key after a lost answer so trying again is the same claim; a refusal drops it", async () => {
    const failures = [lost, refused]
    const { actor, keys, ready } = harness(async () => Promise.reject(failures.shift()))
    await ready()
    actor.send({ type: "referral.claim" })
    await vi.waitFor(() => expect(actor.getSnapshot().context.refusal?.reason).toBe("Unreachable"))
    actor.send({ type: "referral.claim" })
    await vi.waitFor(() => expect(actor.getSnapshot().context.refusal?.reason).toBe("Conflict"))
    expect(keys[1]).toBe(keys[0])
    expect(actor.getSnapshot().context.key).toBeUndefined()
  })
})
