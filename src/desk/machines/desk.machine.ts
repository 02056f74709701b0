import { assign, enqueueActions, type EventObject, fromCallback, fromPromise, setup, type SnapshotFrom, stopChild } from "xstate"
import { DESK_IDLE_MINUTES } from "../../domain/staff.ts"
import type { CallFailed } from "../../machines/calls.ts"
import type { DeskChanged } from "../../schema/realtime.ts"
import type { Enrolment, SignInAnswer, SignInPayload, StaffMember } from "../../schema/desk/staff.ts"
import { unprovided, unprovidedAction } from "../../machines/unprovided.ts"
import { type Refusal, refusalOf } from "../../machines/writes.ts"
import { type DeskFlowName, topicsOf } from "./flows.ts"

/**
 * The desk's root actor: the staff member's session and every screen's flow.
 *
 * Signing in takes the username and password, then (DIRECTOR and ADMIN, or
 * anyone who enrolled one) the authenticator's code, or first the enrolment
 * of an authenticator from the QR the server sends. Signed in, the desk's
 * socket is listened to and what it hears goes to the flows of its topic
 * (`live.changed`); 30 minutes without activity, or the server saying the
 * session has ended (any 401), ends it here too. Screens open their flows
 * (`flow.open` / `flow.close`) as children of this actor, as the player
 * site's views do (src/machines/app.machine.ts).
 */
export type SignInField = "username" | "password" | "code"

export interface DeskContext {
  readonly credentials: { readonly username: string; readonly password: string; readonly code: string }
  readonly enrolment: Enrolment | undefined
  readonly staff: StaffMember | undefined
  readonly refusal: Refusal | undefined
  /** Why the last session ended, for the sign-in screen. */
  readonly ended: string | undefined
  /** The open flows: how many views hold each, and the topics of the desk's socket it hears. */
  readonly flows: Readonly<Record<string, { readonly views: number; readonly topics: ReadonlyArray<DeskChanged["topic"]> }>>
}

export type DeskEvent =
  | { type: "field.change"; field: SignInField; value: string }
  | { type: "signIn.submit" }
  | { type: "signIn.restart" }
  | { type: "session.signOut" }
  | { type: "session.ended" }
  | { type: "session.activity" }
  | { type: "staff.changed"; staff: StaffMember }
  | { type: "desk.changed"; change: DeskChanged }
  | { type: "flow.open"; id: string; flow: DeskFlowName; input: unknown }
  | { type: "flow.close"; id: string }

export const IDLE_MS = DESK_IDLE_MINUTES * 60_000
export const SESSION_ENDED = "Your desk session has ended. Please sign in again."
export const IDLE_ENDED = `You were away for ${DESK_IDLE_MINUTES} minutes: please sign in again.`

/** The sign-in as it is sent: the code only once asked for. */
export const signInPayload = (context: DeskContext): SignInPayload => ({
  username: context.credentials.username.trim(),
  password: context.credentials.password,
  ...(context.credentials.code.trim() !== "" ? { code: context.credentials.code.trim() } : {})
})

const signInProblem = (context: DeskContext, step: "credentials" | "code") =>
  context.credentials.username.trim() === ""
    ? "Username is required"
    : context.credentials.password === ""
    ? "Password is required"
    : step === "code" && !/^\d{6}$/.test(context.credentials.code.trim())
    ? "Enter the 6 digits your authenticator app shows."
    : undefined

const BLANK = { username: "", password: "", code: "" }

export const deskMachine = setup({
  types: {
    context: {} as DeskContext,
    events: {} as DeskEvent | CallFailed<"signIn">
  },
  actors: {
    /** The staff member of the stored session, if any (fails when there is none or it has ended). */
    restore: fromPromise<StaffMember>(unprovided("desk", "restore")),
    signIn: fromPromise<SignInAnswer, SignInPayload>(unprovided("desk", "signIn")),
    signOut: fromPromise<void>(unprovided("desk", "signOut")),
    /** The desk's socket: sends `desk.changed` for each change it hears. */
    deskSocket: fromCallback<EventObject, void>(unprovided("desk", "deskSocket"))
  },
  actions: {
    /** Keeps or forgets the session's token (the world stored it when the sign-in answered). */
    forgetSession: unprovidedAction("desk", "forgetSession"),
    spawnFlow: unprovidedAction<{ id: string; flow: DeskFlowName; input: unknown }>("desk", "spawnFlow")
  },
  guards: {
    signedIn: ({ event }) => "output" in event && (event.output as SignInAnswer).step === "signedIn",
    askedForCode: ({ event }) => "output" in event && (event.output as SignInAnswer).step === "code",
    credentialsValid: ({ context }) => signInProblem(context, "credentials") === undefined,
    codeValid: ({ context }) => signInProblem(context, "code") === undefined,
    flowOpen: ({ context, event }) => "id" in event && context.flows[event.id] !== undefined,
    lastViewOfFlow: ({ context, event }) => "id" in event && context.flows[event.id]?.views === 1
  },
  delays: { idle: IDLE_MS }
}).createMachine({
  id: "desk",
  context: { credentials: BLANK, enrolment: undefined, staff: undefined, refusal: undefined, ended: undefined, flows: {} },
  initial: "Restoring",
  on: {
    "flow.open": [
      { guard: "flowOpen", actions: assign({ flows: ({ context, event }) => ({ ...context.flows, [event.id]: { ...context.flows[event.id]!, views: context.flows[event.id]!.views + 1 } }) }) },
      {
        actions: [
          assign({ flows: ({ context, event }) => ({ ...context.flows, [event.id]: { views: 1, topics: topicsOf(event.flow) } }) }),
          { type: "spawnFlow", params: ({ event }) => ({ id: event.id, flow: event.flow, input: event.input }) }
        ]
      }
    ],
    "flow.close": [
      {
        guard: "lastViewOfFlow",
        actions: [
          assign({ flows: ({ context, event }) => Object.fromEntries(Object.entries(context.flows).filter(([id]) => id !== event.id)) }),
          stopChild(({ event }) => event.id)
        ]
      },
      { guard: "flowOpen", actions: assign({ flows: ({ context, event }) => ({ ...context.flows, [event.id]: { ...context.flows[event.id]!, views: context.flows[event.id]!.views - 1 } }) }) }
    ]
  },
  states: {
    Restoring: {
      tags: ["busy"],
      invoke: {
        id: "restore",
        src: "restore",
        onDone: { target: "SignedIn", actions: assign({ staff: ({ event }) => event.output }) },
        onError: "SignedOut"
      }
    },
    SignedOut: {
      initial: "Credentials",
      on: {
        "field.change": { actions: assign({ credentials: ({ context, event }) => ({ ...context.credentials, [event.field]: event.value }), refusal: undefined }) },
        "signIn.restart": { target: ".Credentials", actions: assign({ credentials: ({ context }) => ({ ...BLANK, username: context.credentials.username }), enrolment: undefined, refusal: undefined }) }
      },
      states: {
        Credentials: {
          on: {
            "signIn.submit": [
              { guard: "credentialsValid", target: "Submitting" },
              { actions: assign({ refusal: ({ context }) => ({ reason: "InvalidInput" as const, message: signInProblem(context, "credentials")! }) }) }
            ]
          }
        },
        /** The password was right: the authenticator's code is asked for. */
        Code: {
          on: {
            "signIn.submit": [
              { guard: "codeValid", target: "Submitting" },
              { actions: assign({ refusal: ({ context }) => ({ reason: "InvalidInput" as const, message: signInProblem(context, "code")! }) }) }
            ]
          }
        },
        /** The account needs an authenticator: its QR is shown, a first code from it confirms it. */
        Enrol: {
          on: {
            "signIn.submit": [
              { guard: "codeValid", target: "Submitting" },
              { actions: assign({ refusal: ({ context }) => ({ reason: "InvalidInput" as const, message: signInProblem(context, "code")! }) }) }
            ]
          }
        },
        Submitting: {
          tags: ["busy"],
          invoke: {
            id: "signIn",
            src: "signIn",
            input: ({ context }) => signInPayload(context),
            onDone: [
              {
                guard: "signedIn",
                target: "#desk.SignedIn",
                actions: assign({
                  staff: ({ event }) => (event.output.step === "signedIn" ? event.output.staff : undefined),
                  credentials: BLANK,
                  enrolment: undefined,
                  ended: undefined
                })
              },
              { guard: "askedForCode", target: "Code", actions: assign({ credentials: ({ context }) => ({ ...context.credentials, code: "" }) }) },
              {
                target: "Enrol",
                actions: assign({ enrolment: ({ event }) => (event.output.step === "enrol" ? event.output.enrolment : undefined), credentials: ({ context }) => ({ ...context.credentials, code: "" }) })
              }
            ]
          },
          on: {
            // Wrong password or code, throttled, not staff: the refusal says so; a code step asks for a new code.
            "xstate.error.actor.signIn": {
              target: "Back",
              actions: assign({ refusal: ({ event }) => refusalOf(event.error), credentials: ({ context }) => ({ ...context.credentials, code: "" }) })
            }
          }
        },
        /** Back to the step the refused sign-in came from. */
        Back: { type: "history" }
      }
    },
    SignedIn: {
      invoke: { id: "deskSocket", src: "deskSocket" },
      initial: "Active",
      on: {
        "session.signOut": "SigningOut",
        "session.ended": { target: "SignedOut", actions: [assign({ staff: undefined, ended: SESSION_ENDED }), "forgetSession"] },
        "staff.changed": { actions: assign({ staff: ({ event }) => event.staff }) },
        // What the desk's socket heard goes to every open flow of its topic.
        "desk.changed": {
          actions: enqueueActions(({ context, event, enqueue, system }) => {
            for (const [id, flow] of Object.entries(context.flows)) {
              // A flow being opened may not be spawned yet: it loads what is current when it starts anyway.
              const child = flow.topics.includes(event.change.topic) ? system.get(id) : undefined
              const live: { type: "live.changed"; id: string } = { type: "live.changed", id: event.change.id }
              if (child) enqueue.sendTo(child, live as EventObject)
            }
          })
        }
      },
      states: {
        /** Any activity starts the idle time again; 30 minutes of none end the session here as on the server. */
        Active: {
          on: { "session.activity": { target: "Active", reenter: true } },
          after: { idle: { target: "#desk.SignedOut", actions: [assign({ staff: undefined, ended: IDLE_ENDED }), "forgetSession"] } }
        }
      }
    },
    SigningOut: {
      tags: ["busy"],
      invoke: {
        id: "signOut",
        src: "signOut",
        onDone: { target: "SignedOut", actions: [assign({ staff: undefined, ended: undefined }), "forgetSession"] },
        // Signed out here whatever the server said (the session ends there by itself).
        onError: { target: "SignedOut", actions: [assign({ staff: undefined, ended: undefined }), "forgetSession"] }
      }
    }
  }
})

export type DeskMachine = typeof deskMachine

/** What the desk shows for its session: what views read instead of state paths. */
export const deskScreen = (snapshot: SnapshotFrom<DeskMachine>) =>
  snapshot.matches("Restoring") ? "restoring" : snapshot.matches("SignedIn") ? "signedIn" : snapshot.matches("SigningOut") ? "signingOut" : "signedOut"

/** The sign-in step on screen while signed out. */
export const signInStep = (snapshot: SnapshotFrom<DeskMachine>) =>
  snapshot.matches({ SignedOut: "Code" }) ? "code" : snapshot.matches({ SignedOut: "Enrol" }) ? "enrol" : "credentials"
