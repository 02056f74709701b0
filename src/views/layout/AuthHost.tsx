import { lazy, Suspense, useEffect, useRef } from "react"
import { useLocation, useNavigate, useSearchParams } from "react-router"
import { REFERRAL_PARAM } from "../../domain/referral.ts"
import { AppActor } from "../app-actor.ts"
import { useFlow } from "../flows.ts"
import { useOpenAuth, useRestoring, useSession } from "../session.ts"

const AuthModals = lazy(() => import("../modals/AuthModals.tsx"))

/**
 * Shows the sign-in modal a view asked the app for (`auth.open`): the
 * `authModal` flow, loaded the first time, open until the chain closes. It
 * also asks when the URL does: /login (where a 401 sends the player) opens
 * Sign in; `?referral_code=` on any page opens Register with the code.
 */
export const AuthHost = () => {
  const openAuth = useOpenAuth()
  const request = AppActor.useSelector((s) => s.context.auth)
  const modal = useFlow("authModal", { input: request ?? { step: "login" }, enabled: request !== undefined })
  const open = request !== undefined
  const signedIn = useSession((s) => s.hasTag("signedIn"))
  const restoring = useRestoring()
  const { pathname } = useLocation()
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const referralCode = params.get(REFERRAL_PARAM)

  useEffect(() => {
    if (restoring) return
    if (referralCode && !signedIn) {
      openAuth("register", referralCode)
      return
    }
    if (pathname === "/login") {
      if (signedIn) void navigate("/", { replace: true })
      else openAuth("login")
    }
  }, [openAuth, pathname, referralCode, signedIn, restoring, navigate])

  // Closing the modal opened by /login leaves /login, so a reload does not open it again.
  const wasOpen = useRef(false)
  useEffect(() => {
    if (open) wasOpen.current = true
    else if (wasOpen.current && pathname === "/login") void navigate("/", { replace: true })
  }, [open, pathname, navigate])

  return modal ? (
    <Suspense fallback={null}>
      <AuthModals modal={modal} />
    </Suspense>
  ) : null
}
