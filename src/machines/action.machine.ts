import { assign, fromPromise, setup } from "xstate"

/**
 * A write started from a button or a form (save an account, request a
 * withdrawal, claim a bonus): one at a time — a second click while one runs
 * is ignored — busy while it runs, and `succeeded` with the answer when it
 * lands. Failures were already shown by the Api service's toasts; the
 * machine only returns to Idle so the player can try again.
 */
export interface ActionRun {
  readonly name: string
  readonly perform: (signal: AbortSignal) => Promise<unknown>
  readonly onSuccess?: ((output: unknown) => void) | undefined
}

export const actionMachine = setup({
  types: {
    context: {} as { readonly running: ActionRun | undefined },
    events: {} as { type: "action.run" } & ActionRun
  },
  actors: {
    perform: fromPromise<unknown, ActionRun>(({ input, signal }) => input.perform(signal))
  },
  actions: {
    succeeded: (_, params: { run: ActionRun; output: unknown }) => params.run.onSuccess?.(params.output)
  }
}).createMachine({
  id: "action",
  context: { running: undefined },
  initial: "Idle",
  states: {
    Idle: {
      on: {
        "action.run": {
          target: "Running",
          actions: assign({ running: ({ event }) => ({ name: event.name, perform: event.perform, onSuccess: event.onSuccess }) })
        }
      }
    },
    Running: {
      tags: ["busy"],
      invoke: {
        id: "perform",
        src: "perform",
        input: ({ context }) => context.running!,
        onDone: {
          target: "Idle",
          actions: [{ type: "succeeded", params: ({ context, event }) => ({ run: context.running!, output: event.output }) }, assign({ running: undefined })]
        },
        onError: { target: "Idle", actions: assign({ running: undefined }) }
      }
    }
  }
})
