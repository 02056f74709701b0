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
 * theme), and starts every step of the startup pipeline at once, so the
 * answers travel with the HTML instead of one after another once the
 * JavaScript has run; the pipeline still takes them in the spec's order. The
 * banners (about 45 KB of images inside JSON) only on the home page, which
 * alone shows them (elsewhere the app asks once the page has painted). The
 * live casino also asks for its game list.
 *
 * - A visitor without a token gets preloads: those answers are the same for
 *   every such visitor. Each link matches the app's own fetch (same URL, cors
 *   mode, same-origin credentials: src/root/startup.ts), which then takes the
 *   preloaded answer.
 * - A stored token asks for other answers (the sports tree's authenticated
 *   variant; no offers for a closed account) with a header a preload cannot
 *   carry, so the script fetches them itself and leaves the answers with the
 *   token they were asked with (src/root/earlyAnswers.ts).
 */
export const HEAD_SCRIPT = `(function () {
  try {
    var d = document, s = localStorage, path = location.pathname
    d.documentElement.dataset.theme = s.getItem(${JSON.stringify(KEYS.theme)}) === "light" ? "light" : "dark"
    var token = s.getItem(${JSON.stringify(KEYS.token)}) || sessionStorage.getItem(${JSON.stringify(KEYS.token)})
    var calls = token
      ? [[${JSON.stringify(startupCalls.sportsDataAuthenticated.path)}, "auto"], [${JSON.stringify(startupCalls.getUserData.path)}, "auto"]]
      : [[${JSON.stringify(startupCalls.sportsData.path)}, "auto"]]
    if (path === "/") calls.push([${JSON.stringify(startupCalls.advertisement.path)}, "auto"])
    calls.push([${JSON.stringify(startupCalls.appSettings.path)}, "auto"], [${JSON.stringify(startupCalls.allAppSettings.path)}, "auto"])
    if (path === ${JSON.stringify(LOBBY_PATH.live)}) calls.push([${JSON.stringify(startupCalls.casinoGames.path)}, "auto"])
    if (token) {
      var answers = {}, headers = { accept: "application/json", authorization: "Bearer " + token }
      calls.forEach(function (call) {
        var answer = answers[call[0]] = fetch(call[0], { headers: headers, credentials: "omit", priority: call[1] })
        answer.catch(function () {})
      })
      window[${JSON.stringify(EARLY_ANSWERS)}] = { token: token, answers: answers }
    } else {
      calls.forEach(function (call) {
        var l = d.createElement("link")
        l.rel = "preload"; l.as = "fetch"; l.crossOrigin = "anonymous"; l.href = call[0]; l.fetchPriority = call[1]
        d.head.appendChild(l)
      })
    }
  } catch (e) {}
})()`
