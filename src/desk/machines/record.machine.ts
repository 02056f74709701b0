import { assign, enqueueActions, fromPromise, setup } from "xstate"
import type { CallFailed } from "../../machines/calls.ts"
import { unprovided, unprovidedAction } from "../../machines/unprovided.ts"
import { newIdempotencyKey, type Refusal, refusalOf, unanswered, type Written } from "../../machines/writes.ts"
import type { Failure } from "../../schema/errors.ts"

/**
 * One record on the desk and what staff do to it (a player's page, a
 * market's book, the Today figures): the record loaded and read again when
 * the desk hears it changed; the fields of its forms in context
 * (`field.change`); a command run by name (`command.run`: "note", "suspend",
 * "settle"…), first checked by its rule from src/domain (the record machine
 * of a screen is made with its rules), then sent with an Idempotency-Key per
 * attempt. A command that succeeds reads the record again and clears the
 * fields; a refusal says why (a lost answer keeps the key for the retry).
 * A command sent while the record is read (the live desk reads it again
 * whenever it changes) is kept and run on the record as it arrives.
 */
export type Fields = Readonly<Record<string, string>>

/** A command's rule: the problem with the fields for it, or undefined. */
export type Rule<R> = (fields: Fields, record: R) => string | undefined

export interface RecordContext<R> {
  readonly id: string
  readonly record: R | undefined
  readonly fields: Fields
  readonly pending: { readonly command: string; readonly key: string } | undefined
  /** A command sent while the record was being read: run once it arrives. */
  readonly queued: string | undefined
  /** The last command that succeeded, and what the server said of it. */
  readonly done: { readonly command: string; readonly result: unknown } | undefined
  readonly refusal: Refusal | undefined
}

export type RecordEvent =
  | { type: "live.changed"; id: string }
  | { type: "record.reload" }
  | { type: "field.change"; field: string; value: string }
  | { type: "command.run"; command: string }

/** The id of a record of everything of its topics (the risk summary, the Today figures): read again whichever record changed. */
export const EVERY_RECORD = "*"

export interface RecordInput {
  readonly id: string
}

/** What the provided `run` is asked to do: the command on the record, with the fields and the attempt's key. */
export interface RecordCommand {
  readonly id: string
  readonly command: string
  readonly fields: Fields
  readonly key: string
}

export const recordMachine = <R>(rules: Readonly<Record<string, Rule<R>>> = {}) => {
  // Asked only in Ready, where the record is loaded: a command sent before then waits for it.
  const problemOf = (context: RecordContext<R>, command: string) => rules[command]?.(context.fields, context.record!)
  return setup({
    types: {
      context: {} as RecordContext<R>,
      events: {} as RecordEvent | CallFailed<"load" | "run">,
      input: {} as RecordInput
    },
    actors: {
      load: fromPromise<R, string>(unprovided("record", "load")),
      /** A command: the server's answer and its message (a toast). */
      run: fromPromise<Written, RecordCommand>(unprovided("record", "run"))
    },
    actions: {
      /** A command's answer: the server's message as a toast. */
      toastSuccess: unprovidedAction<{ message: string }>("record", "toastSuccess"),
      /** Why a call failed, as a toast (a refusal warns; unreachable or broken is an error). */
      toastFailure: unprovidedAction<{ error: Failure }>("record", "toastFailure"),
      runQueued: enqueueActions(({ context, enqueue }) => {
        if (context.queued === undefined) return
        enqueue.raise({ type: "command.run", command: context.queued })
        enqueue.assign({ queued: undefined })
      })
    },
    guards: {
      valid: ({ context, event }) => event.type === "command.run" && problemOf(context, event.command) === undefined,
      isThis: ({ context, event }) => event.type === "live.changed" && (event.id === context.id || context.id === EVERY_RECORD),
      unanswered
    }
  }).createMachine({
    id: "record",
    context: ({ input }) => ({ id: input.id, record: undefined, fields: {}, pending: undefined, queued: undefined, done: undefined, refusal: undefined }),
    initial: "Loading",
    on: {
      "record.reload": ".Loading",
      "field.change": { actions: assign({ fields: ({ context, event }) => ({ ...context.fields, [event.field]: event.value }) }) }
    },
    states: {
      Loading: {
        tags: ["loading"],
        invoke: {
          id: "load",
          src: "load",
          input: ({ context }) => context.id,
          onDone: { target: "Ready", actions: [assign({ record: ({ event }) => event.output }), "runQueued"] }
        },
        on: {
          "command.run": { actions: assign({ queued: ({ event }) => event.command }) },
          "xstate.error.actor.load": { target: "Failed", actions: [assign({ queued: undefined, refusal: ({ event }) => refusalOf(event.error) }), { type: "toastFailure", params: ({ event }) => ({ error: event.error }) }] }
        }
      },
      Failed: {
        tags: ["failed"],
        on: { "live.changed": { guard: "isThis", target: "Loading" } }
      },
      Ready: {
        initial: "Idle",
        states: {
          Idle: {
            // The only state a command runs from: one sent while loading waits for it; a view disables its commands while one runs.
            on: {
              "live.changed": { guard: "isThis", target: "#record.Loading" },
              "command.run": [
                {
                  guard: "valid",
                  target: "Running",
                  actions: assign({
                    // The same command again after a lost answer keeps its key: the server answers what it did.
                    pending: ({ context, event }) => context.pending?.command === event.command ? context.pending : { command: event.command, key: newIdempotencyKey(event.command) },
                    refusal: undefined,
                    done: undefined
                  })
                },
                { actions: assign({ refusal: ({ context, event }) => ({ reason: "InvalidInput" as const, message: problemOf(context, event.command)! }), done: undefined }) }
              ]
            }
          },
          Running: {
            tags: ["busy"],
            invoke: {
              id: "run",
              src: "run",
              input: ({ context }) => ({ id: context.id, command: context.pending!.command, fields: context.fields, key: context.pending!.key }),
              onDone: {
                target: "#record.Loading",
                actions: [assign({ done: ({ context, event }) => ({ command: context.pending!.command, result: event.output.data }), pending: undefined, fields: {} }), { type: "toastSuccess", params: ({ event }) => ({ message: event.output.message }) }]
              }
            },
            on: {
              "xstate.error.actor.run": [
                { guard: "unanswered", target: "Idle", actions: [assign({ refusal: ({ event }) => refusalOf(event.error) }), { type: "toastFailure", params: ({ event }) => ({ error: event.error }) }] },
                // Refused: the record may have changed meanwhile (someone decided first): read it again.
                { target: "#record.Loading", actions: [assign({ pending: undefined, refusal: ({ event }) => refusalOf(event.error) }), { type: "toastFailure", params: ({ event }) => ({ error: event.error }) }] }
              ]
            }
          }
        }
      }
    }
  })
}

export type RecordMachine<R> = ReturnType<typeof recordMachine<R>>
