import { describe, expect, it } from "vitest"
import { formMachine, type FormContext, type FormSave } from "../../../src/desk/machines/form.machine.ts"
import type { Failure } from "../../../src/schema/errors.ts"
import { entered, expectFullCoverage, invokedWith, isIn, recordFlows, replayPaths, type Step } from "../harness.ts"

const rule = (fields: Readonly<Record<string, string>>) => (/^\d+$/.test(fields.limit ?? "") ? undefined : "The limit is a whole number of rupees.")
const machine = formMachine(rule)
const stored = { limit: "10000" }
const unreachable: Failure = { code: 0, message: "We could not reach the server. Check your connection and try again.", reason: "Unreachable" }
const refused: Failure = { code: 403, message: "Your role may not do this.", reason: "Forbidden" }

const checkStep = (step: Step) => {
  const before: FormContext = step.before.context
  const context: FormContext = step.after.context
  const save = invokedWith(step, "save")
  if (entered(step, "Saving")) {
    expect(rule(context.fields)).toBeUndefined()
    expect(save?.input).toEqual({ fields: context.fields, key: context.key! } satisfies FormSave)
    if (before.key !== undefined) expect(context.key).toBe(before.key)
  } else expect(save).toBeUndefined()
  if (step.event.type === "form.save" && isIn(step.before, "Editing") && !isIn(step.after, "Saving")) expect(context.refusal?.message).toBe(rule(context.fields))
  if (step.event.type === "xstate.done.actor.save") expect(context).toMatchObject({ saved: true, key: undefined, values: context.fields })
  if (step.event.type === "form.reset") expect(context.fields).toEqual(context.values)
  if (step.event.type === "xstate.error.actor.save") expect(context.key !== undefined).toBe(context.refusal?.reason === "Unreachable")
}

describe("form machine (model-based)", () => {
  it("covers every state and transition: load, edit, a rule's refusal, save, a lost answer and a refusal", () => {
    const coverage = replayPaths(machine, {
      outputs: { load: [stored], save: [{ limit: "20000" }] },
      errors: { load: [refused], save: [unreachable, refused] },
      events: { "field.change": [{ type: "field.change", field: "limit", value: "20000" }, { type: "field.change", field: "limit", value: "lots" }] },
      serialize: (s) => JSON.stringify([s.value, s.context.fields, s.context.values, s.context.key !== undefined]),
      check: checkStep
    })
    expectFullCoverage(coverage)
    recordFlows("desk form", "A settings form on the desk: values loaded, fields edited in context, checked by the form's rule, saved with an Idempotency-Key per attempt (kept after a lost answer).", coverage)
  })
})
