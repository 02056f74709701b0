import "@unocss/reset/tailwind.css"
import "../views/styles.css"
import "virtual:uno.css"
import { StrictMode, startTransition, useEffect } from "react"
import { createRoot } from "react-dom/client"
import { BrowserRouter, useNavigate } from "react-router"
import { readTheme, readToken } from "../services/browserStorage.ts"
import { holdInstallPrompt } from "../services/installPrompt.ts"
import { navigator } from "../services/navigator.ts"
import { noticeStore, showFlash } from "../services/noticeStore.ts"
import type { FlowName } from "../machines/flows.ts"
import { App, preloadPage } from "../views/App.tsx"
import { FIRST_PAGES } from "../views/firstPages.ts"
import { AppActor } from "../views/app-actor.ts"
import { loadable } from "../views/loadable.ts"
import { type Ports, PortsContext } from "../views/ports.ts"
import { rootApp } from "./app.ts"
import { loadFlow } from "./flows.ts"
import { landingPainted, whenSettled } from "./idle.ts"

/**
 * The composition root: the one place that knows the runtime and its
 * services. It builds the app actor (root of the one actor system) from the
 * pure app machine with its world provided, hands the views their ports, and
 * binds the router for code outside React (the API's 401 handling). Nothing
 * here waits for the Effect runtime: the first page's world is plain
 * (src/root/startup.ts, ./session.ts), and the runtime loads with the first
 * flow a view opens (docs/performance.md).
 */
/** The landing page's first flows load with it; any other waits until it has painted (idle.ts `landingPainted`). */
const firstFlows: ReadonlyArray<FlowName> = FIRST_PAGES[location.pathname]?.flows ?? []

const ports: Ports = {
  loadFlow: (flow) => (firstFlows.includes(flow) ? loadFlow(flow) : landingPainted.then(() => loadFlow(flow))),
  notices: noticeStore,
  // The odds store (and its socket) loads with the first page that shows prices.
  oddsBooks: loadable(() => import("../services/odds.ts").then((module) => module.odds))
}

const BindNavigation = () => {
  const navigate = useNavigate()
  useEffect(() => navigator.bind((to, options) => void navigate(to, options)), [navigate])
  return null
}

/** A toast kept across the last page load ('Logged In') shows once the site has rendered: its 3 s start when it can be seen. */
const ShowFlash = () => {
  useEffect(() => showFlash(noticeStore), [])
  return null
}

const start = async () => {
  // The browser's install prompt waits for the moment the install flow chooses (src/machines/install.machine.ts).
  holdInstallPrompt()
  preloadPage(location.pathname, loadFlow)
  const input = { token: readToken(), theme: readTheme() }
  // Development and test builds record the system's events (and `npm run dev` with ?inspect shows them in the
  // Stately inspector); production builds drop this branch and the chunk behind it.
  const devtools = import.meta.env.DEV || import.meta.env.MODE === "test" ? await (await import("./devtools.ts")).startDevTools() : {}
  const root = createRoot(document.getElementById("root")!)
  // The first render as a transition: React renders the whole shell in slices, yielding to the browser between
  // them, instead of one long task (the HTML's preloader stays on screen meanwhile).
  startTransition(() => root.render(
    <StrictMode>
      <AppActor.Provider logic={rootApp} options={{ input, ...devtools }}>
        <PortsContext value={ports}>
          <BrowserRouter>
            <BindNavigation />
            <ShowFlash />
            <App />
          </BrowserRouter>
        </PortsContext>
      </AppActor.Provider>
    </StrictMode>
  ))
}

void start()

// Real-user vitals load once the page has loaded, painted and the browser is idle: nothing of them is on the first
// paint's path.
whenSettled(() => void import("./vitals.ts").then((vitals) => vitals.reportVitals()))
