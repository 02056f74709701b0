/**
 * What the installable app (the service worker, src/sw.ts) may and may not
 * serve from its cache. The worker keeps only the built shell: the hashed
 * scripts and stylesheets, index.html, icons and fonts. Anything that is a
 * player's money, account, prices or a game is never kept: its navigations go
 * to the network (never index.html from the cache), and no runtime route
 * caches what it fetches.
 */

/** Paths whose navigations never fall back to the cached index.html (Workbox's `navigateFallbackDenylist`). */
export const NEVER_FROM_CACHE: ReadonlyArray<RegExp> = [
  /^\/api(\/|$)/,
  /^\/identity(\/|$)/,
  /^\/socket\.io(\/|$)/,
  /^\/uploads(\/|$)/,
  // Casino launch pages (Khel Originals' tables) and their artwork.
  /^\/games(\/|$)/,
  /^\/images(\/|$)/,
  // The operator's desk: its own entry (admin.html), never the player's shell.
  /^\/admin(\/|\.html|$)/
]

/** Whether a same-origin path (with or without its query) must never be answered from the worker's cache. */
export const neverFromCache = (path: string) => NEVER_FROM_CACHE.some((pattern) => pattern.test(path))

/** The icons the build draws from public/favicon.svg (vite.config.ts), by file under the site's root. */
export const ICONS = {
  any192: "/icons/icon-192.png",
  any512: "/icons/icon-512.png",
  maskable512: "/icons/maskable-512.png",
  /** iOS takes the home-screen icon from `<link rel="apple-touch-icon">`, not the manifest. */
  apple180: "/icons/apple-touch-icon.png"
} as const

/** The screenshots of the richer install sheet (public/screenshots, taken by `npm run screenshots`), with their sizes. */
export const SCREENSHOTS = [
  { src: "/screenshots/phone-event.png", width: 390, height: 844, formFactor: "narrow", label: "In-play prices and the bet slip on a phone" },
  { src: "/screenshots/laptop-home.png", width: 1366, height: 768, formFactor: "wide", label: "Sports, in-play events and live casino on a laptop" }
] as const

/** How often an open tab asks whether a new build is deployed (and on every focus). */
export const UPDATE_CHECK_MS = 60 * 60 * 1000
