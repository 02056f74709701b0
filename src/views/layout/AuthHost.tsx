import { lazy, Suspense, useEffect, useRef } from "react"
import { useLocation, useNavigate, useSearchParams } from "react-router"
import { useAuthModal, useAuthModalRef, useSession } from "../session.ts"

const AuthModals = lazy(() => import("../modals/AuthModals.tsx"))

/**
 * Opens the sign-in modals when the URL asks: /login (where a 401 sends the
 * player) opens Sign in; `?referral_code=` on any page opens Register with the
 * code. The modal code loads the first time a modal opens.
 */
export const AuthHost = () => {
  const auth = useAuthModalRef()
  const open = useAuthModal((s) => !s.matches("Closed"))
  const signedIn = useSession((s) => s.hasTag("signedIn"))
  const restoring = useSession((s) => s.matches("Restoring") || s.matches("Starting"))
  const { pathname } = useLocation()
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const referralCode = params.get("referral_code")

  useEffect(() => {
    if (restoring) return
    if (referralCode && !signedIn) {
      auth.send({ type: "auth.openRegister", referralCode })
      return
    }
    if (pathname === "/login") {
      if (signedIn) void navigate("/", { replace: true })
      else auth.send({ type: "auth.openLogin" })
    }
  }, [auth, pathname, referralCode, signedIn, restoring, navigate])

  // Closing the modal opened by /login leaves /login, so a reload does not open it again.
  const wasOpen = useRef(false)
  useEffect(() => {
    if (open) wasOpen.current = true
    else if (wasOpen.current && pathname === "/login") void navigate("/", { replace: true })
  }, [open, pathname, navigate])

  return open ? (
    <Suspense fallback={null}>
      <AuthModals />
    </Suspense>
  ) : null
}
