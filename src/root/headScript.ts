import { LOBBY_PATH } from "../domain/casino.ts"
import { KEYS } from "../services/browserStorage.ts"
import { startupCalls } from "../schema/guards.ts"

/**
 * The one inline script of index.html (vite.config.ts puts it in the head; the
 * Content-Security-Policy allows it by its SHA-256, server/edge/headers.ts, and
 * no other inline script). Inline rather than a file: a file in the head
 * blocks the first paint for a round trip on a slow network.
 *
 * It applies the stored theme before the first paint (no flash of the wrong
 * theme), and, for a visitor without a token, preloads the calls whose answer
 * is the same for every such visitor but that index.html cannot preload for
 * everyone: the sports tree (a stored token asks for its authenticated
 * variant instead, src/root/app.ts) and, on the live casino, its game list.
 * The link matches the app's own fetch (same URL, cors mode, same-origin
 * credentials: src/root/startup.ts), which then takes the preloaded answer.
 */
export const HEAD_SCRIPT = `(function () {
  try {
    var d = document, s = localStorage
    d.documentElement.dataset.theme = s.getItem(${JSON.stringify(KEYS.theme)}) === "light" ? "light" : "dark"
    if (s.getItem(${JSON.stringify(KEYS.token)}) || sessionStorage.getItem(${JSON.stringify(KEYS.token)})) return
    var urls = [${JSON.stringify(startupCalls.sportsData.path)}]
    if (location.pathname === ${JSON.stringify(LOBBY_PATH.live)}) urls.push("/api/v1/casino-games")
    urls.forEach(function (href) {
      var l = d.createElement("link")
      l.rel = "preload"; l.as = "fetch"; l.crossOrigin = "anonymous"; l.href = href
      d.head.appendChild(l)
    })
  } catch (e) {}
})()`
