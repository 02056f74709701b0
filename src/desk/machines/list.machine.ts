import { assign, fromPromise, setup } from "xstate"
import type { CallFailed } from "../../machines/calls.ts"
import { unprovided, unprovidedAction } from "../../machines/unprovided.ts"
import { type Refusal, refusalOf } from "../../machines/writes.ts"
import type { Failure } from "../../schema/errors.ts"

/**
 * A long list paged on the server (players, the audit trail, staff, markets):
 * the query's fields in context (`query.change`), one page at a time by the
 * server's cursor (`page.next`, `page.previous` back through the cursors
 * seen), and a reload when the desk hears its topic changed (`live.changed`)
 * or is asked (`list.refresh`). A new query starts again from the first page.
 * The rows of the last page stay on screen while the next loads. A list that
 * exports (the audit trail's CSV) asks for every row the query matches
 * (`list.export`) and hands the file to `save`.
 */
export type ListQuery = Readonly<Record<string, string>>

export interface Page<Row> {
  readonly items: ReadonlyArray<Row>
  readonly next: string | null
  /** How many rows match in all, when the server counts them. */
  readonly total: number | null
}

export interface ListContext<Row> {
  readonly query: ListQuery
  readonly page: Page<Row>
  /** The cursor each page shown so far was loaded with (undefined for the first): the last is the current page's. */
  readonly cursors: ReadonlyArray<string | undefined>
  readonly refusal: Refusal | undefined
}

export type ListEvent =
  | { type: "query.change"; field: string; value: string }
  | { type: "page.next" }
  | { type: "page.previous" }
  | { type: "list.refresh" }
  | { type: "live.changed" }
  | { type: "list.export" }

export interface ListInput {
  readonly query: ListQuery
}

/** What the provided `load` is asked: the query (empty fields left out) and the page's cursor. */
export interface PageRequest {
  readonly query: ListQuery
  readonly after: string | undefined
}

const requestOf = <Row>(context: ListContext<Row>): PageRequest => ({
  query: Object.fromEntries(Object.entries(context.query).filter(([, value]) => value.trim() !== "")),
  after: context.cursors[context.cursors.length - 1]
})

const EMPTY = { items: [], next: null, total: 0 }

/** The list machine of a row type (the flows' own: `listMachine<StaffAccount>()`). */
export const listMachine = <Row>() =>
  setup({
    types: {
      context: {} as ListContext<Row>,
      events: {} as ListEvent | CallFailed<"export" | "load">,
      input: {} as ListInput
    },
    actors: {
      load: fromPromise<Page<Row>, PageRequest>(unprovided("list", "load")),
      /** Every row the query matches, as a file's text. */
      export: fromPromise<string, PageRequest>(unprovided("list", "export"))
    },
    actions: {
      /** Offers the exported file to the staff member (a download). */
      save: unprovidedAction<{ text: string }>("list", "save"),
      /** Why a call failed, as a toast (a refusal warns; unreachable or broken is an error). */
      toastFailure: unprovidedAction<{ error: Failure }>("list", "toastFailure")
    },
    guards: {
      hasNext: ({ context }) => context.page.next !== null,
      hasPrevious: ({ context }) => context.cursors.length > 1
    }
  }).createMachine({
    id: "list",
    context: ({ input }) => ({ query: input.query, page: EMPTY, cursors: [undefined], refusal: undefined }),
    initial: "Loading",
    on: {
      "query.change": { target: ".Loading", actions: assign({ query: ({ context, event }) => ({ ...context.query, [event.field]: event.value }), cursors: [undefined] }) },
      "list.refresh": ".Loading",
      "live.changed": ".Loading"
    },
    states: {
      Loading: {
        tags: ["loading"],
        invoke: {
          id: "load",
          src: "load",
          input: ({ context }) => requestOf(context),
          onDone: { target: "Ready", actions: assign({ page: ({ event }) => event.output, refusal: undefined }) }
        },
        on: { "xstate.error.actor.load": { target: "Failed", actions: [assign({ refusal: ({ event }) => refusalOf(event.error) }), { type: "toastFailure", params: ({ event }) => ({ error: event.error }) }] } }
      },
      Ready: {
        on: {
          "page.next": { guard: "hasNext", target: "Loading", actions: assign({ cursors: ({ context }) => [...context.cursors, context.page.next ?? undefined] }) },
          "page.previous": { guard: "hasPrevious", target: "Loading", actions: assign({ cursors: ({ context }) => context.cursors.slice(0, -1) }) },
          "list.export": { target: "Exporting", actions: assign({ refusal: undefined }) }
        }
      },
      Exporting: {
        tags: ["busy"],
        invoke: {
          id: "export",
          src: "export",
          input: ({ context }) => ({ ...requestOf(context), after: undefined }),
          onDone: { target: "Ready", actions: { type: "save", params: ({ event }) => ({ text: event.output }) } }
        },
        on: { "xstate.error.actor.export": { target: "Ready", actions: [assign({ refusal: ({ event }) => refusalOf(event.error) }), { type: "toastFailure", params: ({ event }) => ({ error: event.error }) }] } }
      },
      /** The page could not be loaded: the refusal says why; any change or a refresh tries again. */
      Failed: {}
    }
  })

export type ListMachine<Row> = ReturnType<typeof listMachine<Row>>

/** The page number shown (1-based) and how many there are. */
export const pageOf = <Row>(context: ListContext<Row>, size: number) => ({ page: context.cursors.length, pages: Math.max(1, Math.ceil((context.page.total ?? 0) / size)) })
