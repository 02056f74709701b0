/// <reference lib="webworker" />
import { clientsClaim } from "workbox-core"
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from "workbox-precaching"
import { NavigationRoute, registerRoute } from "workbox-routing"
import { NEVER_FROM_CACHE } from "./domain/pwa.ts"

/**
 * The service worker (built by vite-plugin-pwa's injectManifest into sw.js).
 * It keeps the player's shell — the hashed scripts and stylesheets,
 * index.html, icons and fonts the build lists in `__WB_MANIFEST` — and
 * answers navigations with the cached index.html, so the site opens at once
 * and, offline, shows its own offline screen. Nothing else is cached: no
 * runtime route, and the navigations of NEVER_FROM_CACHE (the API, identity,
 * socket.io, uploads, games, the desk) always go to the network.
 *
 * A new build waits until the player chooses Reload (the appUpdate flow sends
 * SKIP_WAITING): taking over by itself would reload a tab with a half-typed stake.
 */
declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> }

precacheAndRoute(self.__WB_MANIFEST)
cleanupOutdatedCaches()
registerRoute(new NavigationRoute(createHandlerBoundToURL("/index.html"), { denylist: [...NEVER_FROM_CACHE] }))

// The first worker controls the page that registered it at once; a later one only once it is let in (below).
clientsClaim()

self.addEventListener("message", (event) => {
  if ((event.data as { type?: unknown } | null)?.type === "SKIP_WAITING") void self.skipWaiting()
})
