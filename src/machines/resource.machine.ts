import { assign, fromPromise, setup } from "xstate"

/**
 * A read the page shows: load with parameters (a date range, a tab), keep
 * the last answer while loading again, reload on demand (after a write, or
 * when the user's socket event says money moved). The `load` actor is
 * provided per use; leaving Loading aborts the request.
 */
export interface ResourceContext<P, A> {
  readonly params: P
  readonly data: A | undefined
  readonly error: string | undefined
}

export type ResourceEvent<P> =
  | { type: "resource.load"; params: P }
  | { type: "resource.reload" }

export const resourceMachine = setup({
  types: {
    context: {} as ResourceContext<unknown, unknown>,
    events: {} as ResourceEvent<unknown>,
    input: {} as { params: unknown }
  },
  actors: {
    load: fromPromise<unknown, unknown>(async () => {
      throw new Error("resource machine: provide a `load` actor")
    })
  }
}).createMachine({
  id: "resource",
  context: ({ input }) => ({ params: input.params, data: undefined, error: undefined }),
  initial: "Loading",
  on: {
    "resource.load": { target: ".Loading", reenter: true, actions: assign({ params: ({ event }) => event.params }) },
    "resource.reload": { target: ".Loading", reenter: true }
  },
  states: {
    Loading: {
      tags: ["busy"],
      invoke: {
        id: "load",
        src: "load",
        input: ({ context }: { context: ResourceContext<unknown, unknown> }) => context.params,
        onDone: { target: "Ready", actions: assign({ data: ({ event }) => event.output, error: undefined }) },
        onError: { target: "Failed", actions: assign({ error: ({ event }) => (event.error as { message?: string })?.message ?? "Could not load." }) }
      }
    },
    Ready: {},
    Failed: {}
  }
})
