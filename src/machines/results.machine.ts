import { assign, fromPromise, setup } from "xstate"
import type { Failure } from "../schema/errors.ts"
import type { ResultsPage, ResultsQuery, SettledMarket } from "../schema/results.ts"
import type { CallFailed } from "./calls.ts"
import { unprovided, unprovidedAction } from "./unprovided.ts"

/**
 * /results: the markets settled in the last 7 days, newest first, for one
 * sport or all. A first page loads with the page and with each change of
 * sport (the rows shown stay until the new ones replace them); "Show more"
 * appends the next page while there is one. A failed first page waits for
 * Try again; a failed next page leaves the rows as they were (a toast says
 * why).
 */
export interface ResultsContext {
  /** A sport's slug, or null for every sport. */
  readonly sport: string | null
  readonly rows: ReadonlyArray<SettledMarket>
  /** The cursor of the next page, null on the last. */
  readonly next: string | null
}

export type ResultsEvent =
  | { type: "results.sport"; sport: string | null }
  | { type: "results.more" }
  | { type: "results.reload" }

/** What a page is asked with: the sport and the cursor (the server's page size). */
export type ResultsRequest = Omit<ResultsQuery, "limit">

const queryOf = (sport: string | null, after: string | null): ResultsRequest => ({
  ...(sport === null ? {} : { sport }),
  ...(after === null ? {} : { after })
})

export const resultsMachine = setup({
  types: { context: {} as ResultsContext, events: {} as ResultsEvent | CallFailed<"loadMore"> },
  actors: {
    /** A first page: its failure is shown on the page. */
    loadResults: fromPromise<ResultsPage, ResultsRequest>(unprovided("results", "loadResults")),
    /** A next page: its failure is a toast, the rows stay. */
    loadMore: fromPromise<ResultsPage, ResultsRequest>(unprovided("results", "loadMore"))
  },
  actions: {
    /** Why a next page did not load, as a toast (SPEC section 8). */
    toastFailure: unprovidedAction<{ error: Failure }>("results", "toastFailure")
  },
  guards: {
    hasMore: ({ context }) => context.next !== null
  }
}).createMachine({
  id: "results",
  context: { sport: null, rows: [], next: null },
  initial: "Loading",
  on: {
    "results.sport": { target: ".Loading", actions: assign({ sport: ({ event }) => event.sport }) }
  },
  states: {
    Loading: {
      tags: ["loading"],
      invoke: {
        id: "loadResults",
        src: "loadResults",
        input: ({ context }) => queryOf(context.sport, null),
        onDone: { target: "Ready", actions: assign({ rows: ({ event }) => event.output.rows, next: ({ event }) => event.output.next }) },
        onError: "Failed"
      }
    },
    Ready: {
      on: { "results.more": { guard: "hasMore", target: "LoadingMore" } }
    },
    LoadingMore: {
      tags: ["loadingMore"],
      invoke: {
        id: "loadMore",
        src: "loadMore",
        input: ({ context }) => queryOf(context.sport, context.next),
        onDone: { target: "Ready", actions: assign({ rows: ({ context, event }) => [...context.rows, ...event.output.rows], next: ({ event }) => event.output.next }) }
      },
      on: { "xstate.error.actor.loadMore": { target: "Ready", actions: { type: "toastFailure", params: ({ event }) => ({ error: event.error }) } } }
    },
    Failed: {
      tags: ["failed"],
      on: { "results.reload": "Loading" }
    }
  }
})
