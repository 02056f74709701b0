import { type AnyActorLogic, enqueueActions, fromCallback } from "xstate"
import { appMachine } from "../machines/app.machine.ts"
import { type ConnectivityEvent, connectivityMachine } from "../machines/connectivity.machine.ts"
import type { FlowName } from "../machines/flows.ts"
import type { SiteSettings, Theme } from "../schema/settings.ts"
import { readToken, saveTheme } from "../services/browserStorage.ts"
// Not the browser's `navigator` (its `onLine` is read below): the router's, for code outside React.
import { navigator as router } from "../services/navigator.ts"
import * as socket from "../services/socket.ts"
import { flowLogic } from "./flows.ts"
import { catalogueSettled, landingPainted } from "./idle.ts"
import { session } from "./session.ts"
import { startupTask } from "./startup.ts"

const onHome = () => location.pathname === "/"

const setFavicon = (href: string) => {
  let link = document.querySelector<HTMLLinkElement>("link[rel~='icon']")
  if (!link) {
    link = document.createElement("link")
    link.rel = "icon"
    document.head.appendChild(link)
  }
  link.removeAttribute("type")
  link.href = href
}

/** The browser's network: its `online` and `offline` events, and whether it has one now. */
const connectivity = connectivityMachine.provide({
  actors: {
    network: fromCallback<ConnectivityEvent>(({ sendBack }) => {
      const offline = () => sendBack({ type: "network.offline" })
      const online = () => sendBack({ type: "network.online" })
      if (!navigator.onLine) offline()
      addEventListener("offline", offline)
      addEventListener("online", online)
      return () => {
        removeEventListener("offline", offline)
        removeEventListener("online", online)
      }
    })
  },
  actions: {
    reconnect: () => {
      socket.reconnect()
      // The odds channel is open only where a page showed prices: then its module is loaded already.
      void import("../services/odds.ts").then((module) => module.odds.reconnect())
    }
  }
})

/**
 * The root of the one actor system, with its world: the start-up calls, the
 * session provided, the theme and site settings applied to
 * the document, the router for the URL's own requests (/login, a referral
 * link), and the flows views open (the sign-in modals among them) spawned
 * from their loaded logic.
 */
export const rootApp = appMachine.provide({
  actors: {
    session,
    connectivity,
    // SPEC section 6: the authenticated variant while a token is stored.
    // Start-up calls are only logged when they fail (SPEC section 8): no toasts. They run before the Effect
    // runtime loads (src/root/startup.ts).
    loadSports: startupTask(() => (readToken() ? "sportsDataAuthenticated" : "sportsData"), { settled: catalogueSettled }),
    // Only the home page shows the banners (about 45 KB): elsewhere they wait until the page has painted.
    loadAds: startupTask("advertisement", {
      after: () => (onHome() ? undefined : landingPainted),
      priority: () => (onHome() ? "auto" : "low")
    }),
    loadUser: startupTask("getUserData"),
    loadAppSettings: startupTask("appSettings"),
    loadAllSettings: startupTask("allAppSettings")
  },
  actions: {
    reloadPage: () => location.reload(),
    navigate: (_, { to, replace }: { to: string; replace: boolean }) => router.go(to, { replace }),
    applyTheme: (_, { theme }: { theme: Theme }) => {
      document.documentElement.dataset.theme = theme
      saveTheme(theme)
    },
    applySiteSettings: (_, { settings }: { settings: SiteSettings }) => {
      if (settings.faviconImg) setFavicon(settings.faviconImg)
      const rgb = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(settings.color)
      if (rgb) document.documentElement.style.setProperty("--brand", rgb.slice(1).map((h) => Number.parseInt(h, 16)).join(" "))
    },
    // The flow as a child whose id is also its system id.
    spawnFlow: enqueueActions(({ enqueue }, params: { id: string; flow: FlowName; input: unknown }) => {
      // XState's types refuse an id for logic passed inline once a machine's actors are typed; the runtime takes
      // it, and the id is what makes the flow addressable (stopChild, system.get).
      const spawn = enqueue.spawnChild as unknown as (logic: AnyActorLogic, options: { id: string; systemId: string; input: unknown }) => void
      spawn(flowLogic(params.flow), { id: params.id, systemId: params.id, input: params.input })
    })
  }
})
