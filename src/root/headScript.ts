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
 * theme), and, for a visitor without a token, preloads the startup calls,
 * whose answers are the same for every such visitor, so they travel with the
 * HTML instead of after the JavaScript has run. A stored token asks for other
 * answers (the sports tree's authenticated variant; no offers for a closed
 * account), so a signed-in player preloads nothing and fetches each once.
 * The banners (about 60 KB of images inside JSON) only come early on the home
 * page, which shows them; elsewhere they would hold back what the page paints
 * first, and the pipeline asks for them after the sports tree. The live
 * casino also preloads its game list. Each link matches the app's own fetch
 * (same URL, cors mode, same-origin credentials: src/root/startup.ts), which
 * then takes the preloaded answer.
 */
export const HEAD_SCRIPT = `(function () {
  try {
    var d = document, s = localStorage, path = location.pathname
    d.documentElement.dataset.theme = s.getItem(${JSON.stringify(KEYS.theme)}) === "light" ? "light" : "dark"
    if (s.getItem(${JSON.stringify(KEYS.token)}) || sessionStorage.getItem(${JSON.stringify(KEYS.token)})) return
    var urls = [${JSON.stringify(startupCalls.sportsData.path)}]
    if (path === "/") urls.push(${JSON.stringify(startupCalls.advertisement.path)})
    urls.push(${JSON.stringify(startupCalls.appSettings.path)}, ${JSON.stringify(startupCalls.allAppSettings.path)})
    if (path === ${JSON.stringify(LOBBY_PATH.live)}) urls.push(${JSON.stringify(startupCalls.casinoGames.path)})
    urls.forEach(function (href) {
      var l = d.createElement("link")
      l.rel = "preload"; l.as = "fetch"; l.crossOrigin = "anonymous"; l.href = href
      d.head.appendChild(l)
    })
  } catch (e) {}
})()`
