import "@unocss/reset/tailwind.css"
import "../views/styles.css"
import "virtual:uno.css"
import { Effect } from "effect"
import { StrictMode, useEffect } from "react"
import { createRoot } from "react-dom/client"
import { BrowserRouter, useNavigate } from "react-router"
import { showFlash } from "../services/notices.ts"
import { navigator, noticeStore, run } from "../services/runtime.ts"
import { Storage } from "../services/storage.ts"
import { App } from "../views/App.tsx"
import { AppActor } from "../views/app-actor.ts"
import { type OddsBooks, type Ports, PortsContext } from "../views/ports.ts"
import { rootApp } from "./app.ts"
import { loadFlow } from "./flows.ts"

/**
 * The composition root: the one place that knows the runtime and its
 * services. It builds the app actor (root of the one actor system) from the
 * pure app machine with its world provided, hands the views their ports, and
 * binds the router for code outside React (the API's 401 handling).
 */
let oddsBooks: Promise<OddsBooks> | undefined
const ports: Ports = {
  loadFlow,
  notices: noticeStore,
  // The odds store (and its socket) loads with the first page that shows prices.
  oddsBooks: () => (oddsBooks ??= import("../services/odds.ts").then((module) => module.odds))
}

const BindNavigation = () => {
  const navigate = useNavigate()
  useEffect(() => navigator.bind((to) => void navigate(to)), [navigate])
  return null
}

const start = async () => {
  showFlash(noticeStore)
  const input = await run(Effect.all({ token: Storage.use((s) => s.token), theme: Storage.use((s) => s.theme) }))
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <AppActor.Provider logic={rootApp} options={{ input }}>
        <PortsContext value={ports}>
          <BrowserRouter>
            <BindNavigation />
            <App />
          </BrowserRouter>
        </PortsContext>
      </AppActor.Provider>
    </StrictMode>
  )
}

void start()

// Real-user vitals load once the page has loaded and the browser is idle: nothing of them is on the first paint's path.
addEventListener("load", () => {
  const later = (run: () => void) => (typeof requestIdleCallback === "function" ? requestIdleCallback(run, { timeout: 5000 }) : setTimeout(run, 2000))
  later(() => void import("./vitals.ts").then((vitals) => vitals.reportVitals()))
}, { once: true })
