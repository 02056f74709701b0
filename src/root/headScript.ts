import { LOBBY_PATH } from "../domain/casino.ts"
import { KEYS } from "../services/browserStorage.ts"
import { startupCalls } from "../schema/guards.ts"
import { EARLY_ANSWERS } from "./earlyAnswers.ts"

/**
 * The one inline script of index.html (vite.config.ts puts it in the head; the
 * Content-Security-Policy allows it by its SHA-256, server/edge/headers.ts, and
 * no other inline script). Inline rather than a file: a file in the head
 * blocks the first paint for a round trip on a slow network.
 *
 * It applies the stored theme before the first paint (no flash of the wrong
 * theme), and starts the startup calls, so they travel with the HTML instead
 * of after the JavaScript has run; the pipeline still takes their answers in
 * the spec's order.
 *
 * - A visitor without a token gets preloads: those answers are the same for
 *   every such visitor. Each link matches the app's own fetch (same URL, cors
 *   mode, same-origin credentials: src/root/startup.ts), which then takes the
 *   preloaded answer. The banners (about 45 KB of images inside JSON) only
 *   come early on the home page, which shows them; elsewhere they would hold
 *   back what the page paints first, and the pipeline asks for them after the
 *   sports tree.
 * - A stored token asks for other answers (the sports tree's authenticated
 *   variant; no offers for a closed account) with a header a preload cannot
 *   carry, so the script fetches them itself, every step of the pipeline at
 *   once (the banners at low priority off the home page), and leaves the
 *   answers with the token they were asked with (src/root/earlyAnswers.ts). Without
 *   this a signed-in player waited for five round trips in a row after the
 *   JavaScript had run.
 *
 * The live casino also asks early for its game list.
 */
export const HEAD_SCRIPT = `(function () {
  try {
    var d = document, s = localStorage, path = location.pathname
    d.documentElement.dataset.theme = s.getItem(${JSON.stringify(KEYS.theme)}) === "light" ? "light" : "dark"
    var token = s.getItem(${JSON.stringify(KEYS.token)}) || sessionStorage.getItem(${JSON.stringify(KEYS.token)})
    var lobby = path === ${JSON.stringify(LOBBY_PATH.live)}
    if (token) {
      var answers = {}, headers = { accept: "application/json", authorization: "Bearer " + token }
      var ask = function (href, priority) {
        answers[href] = fetch(href, { headers: headers, credentials: "omit", priority: priority })
        answers[href].catch(function () {})
      }
      ask(${JSON.stringify(startupCalls.sportsDataAuthenticated.path)}, "auto")
      ask(${JSON.stringify(startupCalls.advertisement.path)}, path === "/" ? "auto" : "low")
      ask(${JSON.stringify(startupCalls.getUserData.path)}, "auto")
      ask(${JSON.stringify(startupCalls.appSettings.path)}, "auto")
      ask(${JSON.stringify(startupCalls.allAppSettings.path)}, "auto")
      if (lobby) ask(${JSON.stringify(startupCalls.casinoGames.path)}, "auto")
      window[${JSON.stringify(EARLY_ANSWERS)}] = { token: token, answers: answers }
      return
    }
    var urls = [${JSON.stringify(startupCalls.sportsData.path)}]
    if (path === "/") urls.push(${JSON.stringify(startupCalls.advertisement.path)})
    urls.push(${JSON.stringify(startupCalls.appSettings.path)}, ${JSON.stringify(startupCalls.allAppSettings.path)})
    if (lobby) urls.push(${JSON.stringify(startupCalls.casinoGames.path)})
    urls.forEach(function (href) {
      var l = d.createElement("link")
      l.rel = "preload"; l.as = "fetch"; l.crossOrigin = "anonymous"; l.href = href
      d.head.appendChild(l)
    })
  } catch (e) {}
})()`
