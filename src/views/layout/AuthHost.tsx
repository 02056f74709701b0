import { lazy, Suspense, useEffect } from "react"
import { useLocation } from "react-router"
import { AppActor } from "../app-actor.ts"
import { useFlow } from "../flows.ts"

const AuthModals = lazy(() => import("../modals/AuthModals.tsx"))

/**
 * Shows the sign-in modal the app asks for (`auth.open`): the `authModal`
 * flow, loaded the first time, open until the chain closes. It tells the app
 * where the router is (`route.changed`), which decides what the URL asks
 * (/login, `?referral_code=`) in app.machine.ts.
 */
export const AuthHost = () => {
  const app = AppActor.useActorRef()
  const request = AppActor.useSelector((s) => s.context.auth)
  const modal = useFlow("authModal", { input: request ?? { step: "login" }, enabled: request !== undefined })
  const { pathname, search } = useLocation()

  useEffect(() => app.send({ type: "route.changed", pathname, search }), [app, pathname, search])

  return modal ? (
    <Suspense fallback={null}>
      <AuthModals modal={modal} />
    </Suspense>
  ) : null
}
