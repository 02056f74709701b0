import { useSelector } from "@xstate/react"
import type { SnapshotFrom } from "xstate"
import type { authModalMachine } from "../machines/authModal.machine.ts"
import type { sessionMachine } from "../machines/session.machine.ts"
import { AppActor } from "./app-actor.ts"

export type SessionSnapshot = SnapshotFrom<typeof sessionMachine>
export type AuthModalSnapshot = SnapshotFrom<typeof authModalMachine>

/** The session actor (a child of the app machine). */
export const useSessionRef = () => AppActor.useSelector((s) => s.children.session)!

/** A slice of the session, re-rendering only when it changes. */
export const useSession = <T>(selector: (snapshot: SessionSnapshot) => T) => useSelector(useSessionRef(), selector)

/** The signed-in user, or undefined. */
export const useUser = () => useSession((s) => (s.hasTag("signedIn") ? s.context.user : undefined))

export const useAuthModalRef = () => AppActor.useSelector((s) => s.children.authModal)!

export const useAuthModal = <T>(selector: (snapshot: AuthModalSnapshot) => T) => useSelector(useAuthModalRef(), selector)
