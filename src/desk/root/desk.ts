import { Effect } from "effect"
import { type AnyActorLogic, enqueueActions, fromCallback, fromPromise } from "xstate"
import { DeskAccountApi, DeskSignInApi } from "../../schema/desk/staff.ts"
import { deskMachine } from "../machines/desk.machine.ts"
import type { DeskFlowName } from "../machines/flows.ts"
import { DeskApi, DeskFailure } from "../services/api.ts"
import { readDeskToken, writeDeskToken } from "../services/session.ts"
import { listenToDesk } from "../services/socket.ts"
import { flowLogic } from "./flows.ts"
import { data, runtime, task } from "./runtime.ts"

const signInEndpoint = DeskSignInApi.endpoints.signIn
const account = DeskAccountApi.endpoints

/**
 * The desk's root actor with its world: the session's calls and token, the
 * desk's socket, and the flows screens open (src/desk/root/flows.ts).
 */
export const rootDesk = deskMachine.provide({
  actors: {
    restore: fromPromise(({ signal }) =>
      readDeskToken() === undefined
        ? Promise.reject(new Error("no desk session stored"))
        : runtime.runPromise(data(DeskApi.use((api) => api.call(account.me, {}))), { signal })
    ),
    signIn: task((payload) =>
      Effect.mapError(
        DeskApi.use((api) =>
          Effect.map(api.call(signInEndpoint, { payload }), (envelope) => {
            // Signed in: the session's token is kept for every desk tab of this browser.
            if (envelope.data.step === "signedIn" && envelope.meta.token) writeDeskToken(envelope.meta.token)
            return envelope.data
          })
        ),
        (failure: DeskFailure) => ({ code: failure.code, message: failure.message, reason: failure.reason })
      )
    ),
    signOut: task(() => Effect.asVoid(data(DeskApi.use((api) => api.call(account.signOut, {}))))),
    deskSocket: fromCallback(({ sendBack }) => listenToDesk(readDeskToken(), (change) => sendBack({ type: "desk.changed", change })))
  },
  actions: {
    forgetSession: () => writeDeskToken(undefined),
    spawnFlow: enqueueActions(({ enqueue }, params: { id: string; flow: DeskFlowName; input: unknown }) => {
      // As in the player site's root (src/root/app.ts): the id makes the flow addressable (stopChild, system.get).
      const spawn = enqueue.spawnChild as unknown as (logic: AnyActorLogic, options: { id: string; systemId: string; input: unknown }) => void
      spawn(flowLogic(params.flow), { id: params.id, systemId: params.id, input: params.input })
    })
  }
})
