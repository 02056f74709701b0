import { type ReactNode, useEffect } from "react"
import { NavLink } from "react-router"
import { type Permission, ROLE_NAMES } from "../../domain/staff.ts"
import { SCREENS } from "./screens.tsx"
import { DeskActor } from "./desk-actor.ts"
import { useCan } from "./flows.ts"

/** Activity at most every half minute tells the session (30 idle minutes end it). */
const ACTIVITY_EVERY_MS = 30_000

export const Layout = ({ children }: { readonly children: ReactNode }) => {
  const desk = DeskActor.useActorRef()
  const staff = DeskActor.useSelector((s) => s.context.staff)
  const can = useCan()
  useEffect(() => {
    let last = 0
    const active = () => {
      if (Date.now() - last < ACTIVITY_EVERY_MS) return
      last = Date.now()
      desk.send({ type: "session.activity" })
    }
    const events = ["keydown", "pointerdown", "wheel"] as const
    for (const name of events) addEventListener(name, active, { passive: true })
    return () => {
      for (const name of events) removeEventListener(name, active)
    }
  }, [desk])
  return (
    <div className="desk">
      <nav className="desk-nav" aria-label="Desk">
        <div className="brand">Khel desk</div>
        {SCREENS.filter((screen) => screen.permission === "staff" || can(screen.permission)).map((screen) => (
          <NavLink key={screen.path} to={screen.path} end={screen.path === "/"}>{screen.label}</NavLink>
        ))}
      </nav>
      <div className="desk-main">
        <header className="desk-header">
          <span className="muted">Signed in as <strong>{staff?.name}</strong> ({staff ? ROLE_NAMES[staff.role] : ""})</span>
          <button type="button" className="btn btn-small" onClick={() => desk.send({ type: "session.signOut" })}>Sign out</button>
        </header>
        <main className="desk-content">{children}</main>
      </div>
    </div>
  )
}

/** The screen a role lands on: the first it may see. */
export const homeOf = (can: (permission: Permission) => boolean) => SCREENS.find((screen) => screen.permission === "staff" || can(screen.permission))!.path
