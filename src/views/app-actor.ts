import { createActorContext } from "@xstate/react"
import { Effect } from "effect"
import { appMachine } from "../machines/app.machine.ts"
import { authModalMachine } from "../machines/authModal.machine.ts"
import { sessionMachine } from "../machines/session.machine.ts"
import type { SiteSettings } from "../schema/settings.ts"
import type { User } from "../schema/user.ts"
import { flash } from "../services/notices.ts"
import { Notices } from "../services/notices.ts"
import { Realtime } from "../services/realtime.ts"
import { navigator, run } from "../services/runtime.ts"
import { Storage, type Theme } from "../services/storage.ts"

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

const effect = (program: Effect.Effect<void, never, Storage | Notices | Realtime>) => () => void run(program)

/** The session's side effects in the browser: storage, socket, navigation, toasts. */
const browserSession = sessionMachine.provide({
  actions: {
    saveSession: (_, p: { token: string; user: User; remember: boolean }) => void run(Storage.use((s) => s.saveSession(p.token, p.user, p.remember))),
    saveUser: (_, p: { user: User }) => void run(Storage.use((s) => s.saveUser(p.user))),
    saveToken: (_, p: { token: string }) => void run(Storage.use((s) => s.saveToken(p.token))),
    clearSession: effect(Storage.use((s) => s.clearSession)),
    authenticateSocket: (_, p: { token: string | undefined }) => void run(Realtime.use((r) => r.authenticate(p.token))),
    goHome: () => navigator.go("/"),
    notifyLoggedOut: effect(Notices.use((n) => n.success("Logged Out", "Where Real Life Happens")))
  }
})

/** The sign-in modals' side effects in the browser. */
const browserAuthModal = authModalMachine.provide({
  actions: {
    notice: (_, p: { message: string }) => void run(Notices.use((n) => n.warning(p.message))),
    errorToast: (_, p: { message: string }) => void run(Notices.use((n) => n.error(p.message))),
    success: (_, p: { message: string; subMessage?: string }) => void run(Notices.use((n) => n.success(p.message, p.subMessage))),
    // SPEC section 4: after login, go to / and reload; the notice is shown once the site is back.
    reloadHome: () => {
      flash("success", "Logged In")
      location.assign("/")
    },
    goHome: () => navigator.go("/"),
    saveSignUpData: (_, p: { mobileNo: string }) => void run(Storage.use((s) => s.saveSignUpData({ mobileNo: p.mobileNo }))),
    clearSignUpData: effect(Storage.use((s) => s.clearSignUpData))
  }
})

/** The app machine with its browser side effects; tests use the bare machines with spies. */
export const browserAppMachine = appMachine.provide({
  actors: { session: browserSession, authModal: browserAuthModal },
  actions: {
    applyTheme: (_, { theme }: { theme: Theme }) => {
      document.documentElement.dataset.theme = theme
      void run(Storage.use((storage) => storage.saveTheme(theme)))
    },
    applySiteSettings: (_, { settings }: { settings: SiteSettings }) => {
      if (settings.siteTitle) document.title = settings.siteTitle
      if (settings.faviconImg) setFavicon(settings.faviconImg)
      const rgb = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(settings.color)
      if (rgb) document.documentElement.style.setProperty("--brand", rgb.slice(1).map((h) => Number.parseInt(h, 16)).join(" "))
    }
  }
})

export const AppActor = createActorContext(browserAppMachine)
