import { useSelector } from "@xstate/react"
import { useCallback } from "react"
import type { ActorRefFrom, SnapshotFrom } from "xstate"
import type { AuthStep } from "../machines/authModal.machine.ts"
import type { sessionMachine } from "../machines/session.machine.ts"
import { AppActor } from "./app-actor.ts"

export type SessionSnapshot = SnapshotFrom<typeof sessionMachine>

/** The session actor: the app invokes it for its whole life (system id `session`). */
export const useSessionRef = (): ActorRefFrom<typeof sessionMachine> => {
  const session: ActorRefFrom<typeof sessionMachine> | undefined = AppActor.useActorRef().system.get("session")
  if (!session) throw new Error("app: no 'session' actor in the system")
  return session
}

/** A slice of the session, re-rendering only when it changes. */
export const useSession = <T>(selector: (snapshot: SessionSnapshot) => T) => useSelector(useSessionRef(), selector)

/** The stored session is still being restored: whether the visitor is signed in is not known yet. */
export const useRestoring = () => useSession((s) => s.hasTag("restoring"))

/** The signed-in user, or undefined. */
export const useUser = () => useSession((s) => (s.hasTag("signedIn") ? s.context.user : undefined))

/** Asks the app for a sign-in modal (the `authModal` flow opens at that step). */
export const useOpenAuth = () => {
  const app = AppActor.useActorRef()
  return useCallback((step: AuthStep, referralCode?: string) => app.send({ type: "auth.open", step, referralCode }), [app])
}
