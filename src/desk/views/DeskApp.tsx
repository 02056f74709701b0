import { Navigate, Route, Routes } from "react-router"
import { deskScreen } from "../machines/desk.machine.ts"
import { DeskActor } from "./desk-actor.ts"
import { useCan } from "./flows.ts"
import { homeOf, Layout } from "./Layout.tsx"
import { SCREENS } from "./screens.tsx"
import { SignIn } from "./SignIn.tsx"

/** The desk: signing in, then the screens the staff member's role may see. */
export const DeskApp = () => {
  const state = DeskActor.useSelector(deskScreen)
  const can = useCan()
  if (state === "restoring" || state === "signingOut") return <main className="signin muted" aria-busy="true">Loading the desk…</main>
  if (state === "signedOut") return <SignIn />
  return (
    <Layout>
      <Routes>
        {SCREENS.filter((screen) => screen.permission === "staff" || can(screen.permission)).map((screen) => (
          <Route key={screen.path} path={`${screen.path}/*`} element={screen.element} />
        ))}
        <Route path="*" element={<Navigate to={homeOf(can)} replace />} />
      </Routes>
    </Layout>
  )
}
