import { lazy, Suspense, useEffect } from "react"
import { Outlet, useLocation, useSearchParams } from "react-router"
import { AppActor } from "../app-actor.ts"
import { useAtLeast } from "../breakpoints.ts"
import { AuthHost } from "./AuthHost.tsx"
import { BottomBar } from "./BottomBar.tsx"
import { Footer } from "./Footer.tsx"
import { Header } from "./Header.tsx"
import { Preloader } from "./Preloader.tsx"
import { SportsSidebar } from "./SportsSidebar.tsx"
import { SupportChat } from "./SupportChat.tsx"
import { Toasts } from "./Toasts.tsx"
import { useSession } from "../session.ts"
import { pageTitle } from "../titles.ts"
import { useOffline } from "../connectivity.ts"
import { OfflineScreen } from "./Offline.tsx"
import { AfterStart } from "../widgets/idle.tsx"

const RightSidebar = lazy(() => import("./RightSidebar.tsx"))
const TopCasino = lazy(() => import("./TopCasino.tsx"))
// The installable app's worker and prompts: nothing of them is on the first paint's path.
const AppShell = lazy(() => import("./AppShell.tsx").then((module) => ({ default: module.AppShell })))
// Only a signed-in player has reality checks: a visitor's first page carries none of the dialog's code.
const RealityCheckHost = lazy(() => import("../protection/RealityCheckDialog.tsx").then((module) => ({ default: module.RealityCheckHost })))

/** Where each side panel shows (SPEC section 2, layout). */
const LEFT = ["/", "/event", "/racing", "/sports", "/inplay", "/results", "/login"]
const RIGHT = ["/event", "/racing"]
const TOP_CASINO = ["/", "/login"]

/** The tab's title follows the route and the site's own title (titles.ts): "In-Play — Khel", an event's name. */
const DocumentTitle = () => {
  const { pathname } = useLocation()
  const [params] = useSearchParams()
  const sports = AppActor.useSelector((s) => s.context.sports)
  const site = AppActor.useSelector((s) => s.context.settings?.siteTitle || "Khel")
  const title = pageTitle(pathname, params, sports, site)
  useEffect(() => {
    document.title = title
  }, [title])
  return null
}

export const Layout = () => {
  const { pathname } = useLocation()
  // Side columns exist only where they show (lg: and xl:), so a phone never renders, loads or feeds them.
  const large = useAtLeast("lg")
  const wide = useAtLeast("xl")
  const left = LEFT.includes(pathname) && large
  const right = RIGHT.includes(pathname) && wide
  const topCasino = TOP_CASINO.includes(pathname) && wide
  const signedIn = useSession((s) => s.hasTag("signedIn"))
  const offline = useOffline()
  return (
    <div className="min-h-screen flex flex-col pb-16 lg:pb-0">
      <a href="#main" className="sr-only focus:(not-sr-only fixed left-2 top-2 z-50 btn-brand)">Skip to content</a>
      <DocumentTitle />
      <Header />
      <div className="mx-auto w-full max-w-[1440px] flex-1 flex gap-3 px-2 py-3 lg:px-3">
        {left ? (
          <aside className="hidden lg:block w-64 shrink-0" aria-label="Sports">
            <SportsSidebar />
          </aside>
        ) : null}
        {/* At least a screen tall: lazily loaded pages do not pull the footer up and push it down again (layout shift). */}
        <main id="main" className="min-w-0 flex-1 min-h-[calc(100vh-3.5rem)]" tabIndex={-1}>
          {offline ? <OfflineScreen /> : null}
          {/* Offline, the page stays mounted (what the player typed survives) but is not shown: its prices are not live. */}
          <div hidden={offline}>
            <Outlet />
          </div>
        </main>
        {right || topCasino ? (
          <aside className="hidden xl:block w-80 shrink-0" aria-label={right ? "Live score and my bets" : "Top casino"}>
            {/* Side panels load their code and data once the site has started (the preloader covers them until then). */}
            {offline ? null : <AfterStart><Suspense fallback={null}>{right ? <RightSidebar /> : <TopCasino />}</Suspense></AfterStart>}
          </aside>
        ) : null}
      </div>
      <Footer />
      <BottomBar />
      <SupportChat />
      <Toasts />
      <AuthHost />
      {signedIn ? <Suspense fallback={null}><RealityCheckHost /></Suspense> : null}
      <AfterStart><Suspense fallback={null}><AppShell /></Suspense></AfterStart>
      <Preloader />
    </div>
  )
}
