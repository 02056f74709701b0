/// <reference lib="webworker" />
import { clientsClaim } from "workbox-core"
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from "workbox-precaching"
import { NavigationRoute, registerRoute } from "workbox-routing"
import { ICONS, NEVER_FROM_CACHE } from "./domain/pwa.ts"
import { isPushMessage } from "./schema/guards.ts"

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
 *
 * It also shows the player's notifications (Web Push: server/push/Push.ts),
 * and a tap on one opens its page in the site's window.
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

/** A message that does not match the contract is dropped (only our server can send one, with our VAPID key). */
const messageOf = (data: PushMessageData | null) => {
  try {
    const message: unknown = data?.json()
    return isPushMessage(message) ? message : undefined
  } catch {
    return undefined
  }
}

self.addEventListener("push", (event) => {
  const message = messageOf(event.data)
  if (!message) return
  event.waitUntil(self.registration.showNotification(message.title, {
    body: message.body,
    tag: message.tag,
    icon: ICONS.any192,
    badge: ICONS.any192,
    data: { url: message.url }
  }))
})

self.addEventListener("notificationclick", (event) => {
  event.notification.close()
  const path = (event.notification.data as { url?: unknown } | null)?.url
  // Only a page of this site: a notification never sends the player elsewhere.
  const target = new URL(typeof path === "string" && path.startsWith("/") && !path.startsWith("//") ? path : "/", self.location.origin)
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true })
    const open = windows.find((client) => new URL(client.url).origin === self.location.origin)
    if (!open) return void (await self.clients.openWindow(target.href))
    await open.focus()
    // A window the worker does not control cannot be navigated from here: open the page beside it.
    await open.navigate(target.href).catch(() => self.clients.openWindow(target.href))
  })())
})
