import { useSelector } from "@xstate/react"
import type { ActorRefFrom, SnapshotFrom } from "xstate"
import type { authModalMachine } from "../machines/authModal.machine.ts"
import type { sessionMachine } from "../machines/session.machine.ts"
import { AppActor } from "./app-actor.ts"

export type SessionSnapshot = SnapshotFrom<typeof sessionMachine>
export type AuthModalSnapshot = SnapshotFrom<typeof authModalMachine>

/** A child the app invokes for its whole life, by system id. */
const useAppChild = <T>(systemId: "session" | "authModal"): T => {
  const child: T | undefined = AppActor.useActorRef().system.get(systemId)
  if (!child) throw new Error(`app: no '${systemId}' actor in the system`)
  return child
}

/** The session actor (a child of the app machine). */
export const useSessionRef = () => useAppChild<ActorRefFrom<typeof sessionMachine>>("session")

/** A slice of the session, re-rendering only when it changes. */
export const useSession = <T>(selector: (snapshot: SessionSnapshot) => T) => useSelector(useSessionRef(), selector)

/** The signed-in user, or undefined. */
export const useUser = () => useSession((s) => (s.hasTag("signedIn") ? s.context.user : undefined))

export const useAuthModalRef = () => useAppChild<ActorRefFrom<typeof authModalMachine>>("authModal")

export const useAuthModal = <T>(selector: (snapshot: AuthModalSnapshot) => T) => useSelector(useAuthModalRef(), selector)
