import { assign, fromPromise, setup } from "xstate"
import type { CallFailed } from "../../machines/calls.ts"
import { unprovided } from "../../machines/unprovided.ts"
import { newIdempotencyKey, type Refusal, refusalOf, unanswered } from "../../machines/writes.ts"
import type { Fields } from "./record.machine.ts"

/**
 * A settings form on the desk (site settings, thresholds, bonus rules, a new
 * staff account…): the values as the server has them, loaded first; the
 * fields as the staff member edits them, in context (`field.change`); saving
 * checks them with the form's rule from src/domain, then sends them with an
 * Idempotency-Key per attempt; the server's answer becomes the values again.
 * `form.reset` puts back what the server has.
 */
export interface FormContext {
  readonly values: Fields
  readonly fields: Fields
  readonly key: string | undefined
  readonly refusal: Refusal | undefined
  readonly saved: boolean
}

export type FormEvent =
  | { type: "field.change"; field: string; value: string }
  | { type: "form.save" }
  | { type: "form.reset" }

/** What the provided `save` is sent. */
export interface FormSave {
  readonly fields: Fields
  readonly key: string
}

export const formMachine = (rule: (fields: Fields) => string | undefined = () => undefined) =>
  setup({
    types: {
      context: {} as FormContext,
      events: {} as FormEvent | CallFailed<"load" | "save">
    },
    actors: {
      load: fromPromise<Fields, void>(unprovided("form", "load")),
      save: fromPromise<Fields, FormSave>(unprovided("form", "save"))
    },
    guards: {
      valid: ({ context }) => rule(context.fields) === undefined,
      unanswered
    }
  }).createMachine({
    id: "form",
    context: { values: {}, fields: {}, key: undefined, refusal: undefined, saved: false },
    initial: "Loading",
    states: {
      Loading: {
        tags: ["loading"],
        invoke: {
          id: "load",
          src: "load",
          onDone: { target: "Editing", actions: assign({ values: ({ event }) => event.output, fields: ({ event }) => event.output }) }
        },
        on: { "xstate.error.actor.load": { target: "Failed", actions: assign({ refusal: ({ event }) => refusalOf(event.error) }) } }
      },
      Failed: {},
      Editing: {
        on: {
          "field.change": { actions: assign({ fields: ({ context, event }) => ({ ...context.fields, [event.field]: event.value }), key: undefined, saved: false }) },
          "form.reset": { actions: assign({ fields: ({ context }) => context.values, key: undefined, refusal: undefined, saved: false }) },
          "form.save": [
            { guard: "valid", target: "Saving", actions: assign({ key: ({ context }) => context.key ?? newIdempotencyKey("settings"), refusal: undefined }) },
            { actions: assign({ refusal: ({ context }) => ({ reason: "InvalidInput" as const, message: rule(context.fields)! }) }) }
          ]
        }
      },
      Saving: {
        tags: ["busy"],
        invoke: {
          id: "save",
          src: "save",
          input: ({ context }) => ({ fields: context.fields, key: context.key! }),
          onDone: { target: "Editing", actions: assign({ values: ({ event }) => event.output, fields: ({ event }) => event.output, key: undefined, saved: true }) }
        },
        on: {
          "xstate.error.actor.save": [
            { guard: "unanswered", target: "Editing", actions: assign({ refusal: ({ event }) => refusalOf(event.error) }) },
            { target: "Editing", actions: assign({ refusal: ({ event }) => refusalOf(event.error), key: undefined }) }
          ]
        }
      }
    }
  })

export type FormMachine = ReturnType<typeof formMachine>

/** Fields that differ from the server's values. */
export const dirtyFields = (context: FormContext) => Object.keys(context.fields).filter((field) => context.fields[field] !== context.values[field])
