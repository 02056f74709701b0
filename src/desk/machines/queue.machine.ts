import { assign, fromPromise, setup } from "xstate"
import { rejectionRemark } from "../../domain/staff.ts"
import { type CallFailed, failedWith } from "../../machines/calls.ts"
import { unprovided, unprovidedAction } from "../../machines/unprovided.ts"
import { newIdempotencyKey, type Refusal, refusalOf, unanswered, type Written } from "../../machines/writes.ts"
import type { Failure } from "../../schema/errors.ts"
import type { ListQuery, Page, PageRequest } from "./list.machine.ts"

/**
 * A queue of deposit or withdrawal requests, as support works it all day:
 * the list (filters and pages, reloaded whenever the desk hears a request
 * changed), the request selected with what the desk weighs it by, and what
 * the staff member does to it — claim or let go, approve (a withdrawal: mark
 * paid with the bank's reference), reject with a reason from the list and a
 * note. Every decision carries an Idempotency-Key per attempt (a lost answer
 * keeps it); when someone else decided or holds it first, the refusal says
 * who and the request is read again. `queue.next` / `queue.previous` walk
 * the list (keyboard shortcuts).
 */
export type QueueKind = "deposit" | "withdrawal"

/** What the queue needs of a row and of a request's detail: their id and whether it is still to be decided. */
export interface QueueRow {
  readonly _id: string
  readonly status: string
}

export type QueueAction = "claim" | "release" | "approve" | "reject"

export interface QueueForm {
  /** A rejection's reason, from the list. */
  readonly reason: string
  readonly note: string
  /** A withdrawal paid: the bank's reference. */
  readonly reference: string
}

export interface QueueContext<Row extends QueueRow, Detail> {
  readonly kind: QueueKind
  readonly query: ListQuery
  readonly page: Page<Row>
  readonly cursors: ReadonlyArray<string | undefined>
  readonly selected: string | undefined
  readonly detail: Detail | undefined
  readonly form: QueueForm
  /** The decision in flight (or kept after a lost answer) and its key. */
  readonly pending: { readonly action: QueueAction; readonly key: string } | undefined
  readonly refusal: Refusal | undefined
}

export type QueueEvent =
  | { type: "query.change"; field: string; value: string }
  | { type: "page.next" }
  | { type: "page.previous" }
  | { type: "live.changed"; id: string }
  | { type: "request.select"; id: string }
  | { type: "queue.next" }
  | { type: "queue.previous" }
  | { type: "request.claim" }
  | { type: "request.release" }
  | { type: "request.approve" }
  | { type: "reject.start" }
  | { type: "field.change"; field: keyof QueueForm; value: string }
  | { type: "form.confirm" }
  | { type: "form.cancel" }

export interface QueueInput {
  readonly kind: QueueKind
  readonly query: ListQuery
}

/** What the provided `act` is asked to do. */
export interface QueueCommand {
  readonly kind: QueueKind
  readonly id: string
  readonly action: QueueAction
  /** The decision's remark (a rejection's reason and note) and, for a withdrawal paid, the bank's reference. */
  readonly remark?: string
  readonly reference?: string
  readonly key: string
}

/** The problem with the form as it is, or undefined: a rejection needs a reason; a payout its bank reference. */
export const formProblem = (kind: QueueKind, form: QueueForm, action: "approve" | "reject") =>
  action === "reject"
    ? form.reason.trim() === "" ? "Choose a reason for the rejection." : undefined
    : kind === "withdrawal" && form.reference.trim() === "" ? "Enter the bank's reference of the payout." : undefined

const EMPTY_FORM: QueueForm = { reason: "", note: "", reference: "" }

/** The attempt of an action: the one kept after a lost answer when it is the same action, else a new key. */
const attempt = (pending: QueueContext<QueueRow, unknown>["pending"], action: QueueAction) => (pending?.action === action ? pending : { action, key: newIdempotencyKey(action) })

const neighbour = <Row extends QueueRow>(context: { readonly page: Page<Row>; readonly selected: string | undefined }, step: 1 | -1) => {
  const items = context.page.items
  if (items.length === 0) return undefined
  const at = items.findIndex((row) => row._id === context.selected)
  return items[at === -1 ? 0 : Math.min(items.length - 1, Math.max(0, at + step))]?._id
}

export const queueMachine = <Row extends QueueRow, Detail>() =>
  setup({
    types: {
      context: {} as QueueContext<Row, Detail>,
      events: {} as QueueEvent | CallFailed<"act" | "loadDetail" | "loadPage">,
      input: {} as QueueInput
    },
    actors: {
      loadPage: fromPromise<Page<Row>, PageRequest & { readonly kind: QueueKind }>(unprovided("queue", "loadPage")),
      loadDetail: fromPromise<Detail, { readonly kind: QueueKind; readonly id: string }>(unprovided("queue", "loadDetail")),
      /** A decision: the server's answer and its message (a toast). */
      act: fromPromise<Written, QueueCommand>(unprovided("queue", "act"))
    },
    actions: {
      /** A decision's answer: the server's message as a toast. */
      toastSuccess: unprovidedAction<{ message: string }>("queue", "toastSuccess"),
      /** Why a call failed, as a toast (a refusal warns; unreachable or broken is an error). */
      toastFailure: unprovidedAction<{ error: Failure }>("queue", "toastFailure")
    },
    guards: {
      hasNext: ({ context }) => context.page.next !== null,
      hasPrevious: ({ context }) => context.cursors.length > 1,
      hasRows: ({ context }) => context.page.items.length > 0,
      isSelected: ({ context, event }) => "id" in event && event.id === context.selected,
      /** Someone decided or holds it first: the refusal names them, the request is read again. */
      lostRace: failedWith("AlreadyDecided", "ClaimedByOther"),
      unanswered,
      payNeedsReference: ({ context }) => context.kind === "withdrawal",
      approveFormValid: ({ context }) => formProblem(context.kind, context.form, "approve") === undefined,
      rejectFormValid: ({ context }) => formProblem(context.kind, context.form, "reject") === undefined
    }
  }).createMachine({
    id: "queue",
    type: "parallel",
    context: ({ input }) => ({
      kind: input.kind,
      query: input.query,
      page: { items: [], next: null, total: 0 },
      cursors: [undefined],
      selected: undefined,
      detail: undefined,
      form: EMPTY_FORM,
      pending: undefined,
      refusal: undefined
    }),
    states: {
      List: {
        initial: "Loading",
        on: {
          "query.change": { target: ".Loading", actions: assign({ query: ({ context, event }) => ({ ...context.query, [event.field]: event.value }), cursors: [undefined] }) },
          // A request was filed, claimed or decided somewhere: the page is read again.
          "live.changed": ".Loading"
        },
        states: {
          Loading: {
            tags: ["loading"],
            invoke: {
              id: "loadPage",
              src: "loadPage",
              input: ({ context }) => ({
                kind: context.kind,
                query: Object.fromEntries(Object.entries(context.query).filter(([, value]) => value.trim() !== "")),
                after: context.cursors[context.cursors.length - 1]
              }),
              onDone: { target: "Ready", actions: assign({ page: ({ event }) => event.output }) }
            },
            on: { "xstate.error.actor.loadPage": { target: "Failed", actions: { type: "toastFailure", params: ({ event }) => ({ error: event.error }) } } }
          },
          Ready: {
            on: {
              "page.next": { guard: "hasNext", target: "Loading", actions: assign({ cursors: ({ context }) => [...context.cursors, context.page.next ?? undefined] }) },
              "page.previous": { guard: "hasPrevious", target: "Loading", actions: assign({ cursors: ({ context }) => context.cursors.slice(0, -1) }) }
            }
          },
          Failed: {}
        }
      },
      Request: {
        initial: "None",
        on: {
          "request.select": { target: ".Loading", actions: assign({ selected: ({ event }) => event.id, detail: undefined, form: EMPTY_FORM, refusal: undefined, pending: undefined }) },
          "queue.next": { guard: "hasRows", target: ".Loading", actions: assign(({ context }) => ({ selected: neighbour(context, 1), detail: undefined, form: EMPTY_FORM, refusal: undefined, pending: undefined })) },
          "queue.previous": { guard: "hasRows", target: ".Loading", actions: assign(({ context }) => ({ selected: neighbour(context, -1), detail: undefined, form: EMPTY_FORM, refusal: undefined, pending: undefined })) }
        },
        states: {
          None: {},
          Loading: {
            tags: ["loading-request"],
            invoke: {
              id: "loadDetail",
              src: "loadDetail",
              input: ({ context }) => ({ kind: context.kind, id: context.selected! }),
              onDone: { target: "Shown", actions: assign({ detail: ({ event }) => event.output }) }
            },
            on: { "xstate.error.actor.loadDetail": { target: "Failed", actions: { type: "toastFailure", params: ({ event }) => ({ error: event.error }) } } }
          },
          Failed: { tags: ["failed-request"] },
          /** The request is on screen: what the staff member may do to it. */
          Shown: {
            initial: "Idle",
            on: {
              // The request shown changed elsewhere (claimed, decided): read again, whatever was half-done.
              "live.changed": { guard: "isSelected", target: "Loading" }
            },
            states: {
              Idle: {
                on: {
                  "request.claim": { target: "Acting", actions: assign({ pending: ({ context }) => attempt(context.pending, "claim"), refusal: undefined }) },
                  "request.release": { target: "Acting", actions: assign({ pending: ({ context }) => attempt(context.pending, "release"), refusal: undefined }) },
                  // A deposit is approved at once (a key: `a`); a withdrawal asks for the bank's reference first.
                  "request.approve": [
                    { guard: "payNeedsReference", target: "Approving" },
                    { target: "Acting", actions: assign({ pending: ({ context }) => attempt(context.pending, "approve"), refusal: undefined }) }
                  ],
                  "reject.start": { target: "Rejecting" }
                }
              },
              Approving: {
                tags: ["form", "approving"],
                on: {
                  "field.change": { actions: assign({ form: ({ context, event }) => ({ ...context.form, [event.field]: event.value }) }) },
                  "form.confirm": [
                    { guard: "approveFormValid", target: "Acting", actions: assign({ pending: ({ context }) => attempt(context.pending, "approve"), refusal: undefined }) },
                    { actions: assign({ refusal: ({ context }) => ({ reason: "InvalidInput" as const, message: formProblem(context.kind, context.form, "approve")! }) }) }
                  ],
                  "form.cancel": { target: "Idle", actions: assign({ form: EMPTY_FORM, refusal: undefined }) }
                }
              },
              Rejecting: {
                tags: ["form", "rejecting"],
                on: {
                  "field.change": { actions: assign({ form: ({ context, event }) => ({ ...context.form, [event.field]: event.value }) }) },
                  "form.confirm": [
                    { guard: "rejectFormValid", target: "Acting", actions: assign({ pending: ({ context }) => attempt(context.pending, "reject"), refusal: undefined }) },
                    { actions: assign({ refusal: ({ context }) => ({ reason: "InvalidInput" as const, message: formProblem(context.kind, context.form, "reject")! }) }) }
                  ],
                  "form.cancel": { target: "Idle", actions: assign({ form: EMPTY_FORM, refusal: undefined }) }
                }
              },
              Acting: {
                tags: ["busy"],
                invoke: {
                  id: "act",
                  src: "act",
                  input: ({ context }) => ({
                    kind: context.kind,
                    id: context.selected!,
                    action: context.pending!.action,
                    key: context.pending!.key,
                    ...(context.pending!.action === "reject" ? { remark: rejectionRemark(context.form.reason, context.form.note) } : {}),
                    ...(context.pending!.action === "approve" && context.kind === "withdrawal" ? { reference: context.form.reference.trim() } : {})
                  }),
                  // Done: the request is read again (its new status, who decided); the list hears of it from the desk's socket.
                  onDone: { target: "#queue.Request.Loading", actions: [assign({ pending: undefined, form: EMPTY_FORM }), { type: "toastSuccess", params: ({ event }) => ({ message: event.output.message }) }] }
                },
                on: {
                  "xstate.error.actor.act": [
                    {
                      guard: "lostRace",
                      target: "#queue.Request.Loading",
                      actions: [assign({ pending: undefined, form: EMPTY_FORM, refusal: ({ event }) => refusalOf(event.error) }), { type: "toastFailure", params: ({ event }) => ({ error: event.error }) }]
                    },
                    // No answer: the key stays, so trying again is the same decision.
                    { guard: "unanswered", target: "Idle", actions: [assign({ refusal: ({ event }) => refusalOf(event.error) }), { type: "toastFailure", params: ({ event }) => ({ error: event.error }) }] },
                    { target: "Idle", actions: [assign({ pending: undefined, refusal: ({ event }) => refusalOf(event.error) }), { type: "toastFailure", params: ({ event }) => ({ error: event.error }) }] }
                  ]
                }
              }
            }
          }
        }
      }
    }
  })

export type QueueMachine<Row extends QueueRow, Detail> = ReturnType<typeof queueMachine<Row, Detail>>
