import { createActorContext } from "@xstate/react"
import { appMachine } from "../machines/app.machine.ts"
import type { SiteSettings } from "../schema/settings.ts"
import { run } from "../services/runtime.ts"
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

/** The app machine with its DOM side effects; tests use the bare machine with spies. */
export const browserAppMachine = appMachine.provide({
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
