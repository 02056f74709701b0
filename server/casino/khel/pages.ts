import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { LOBBY_PATH } from "../../../src/domain/casino.ts"
import { chipLabel, DEFAULT_CHIPS } from "../../../src/domain/money.ts"
import { GAMES, type GameCode } from "./fair.js"
import { LIMITS } from "./Khel.ts"

/**
 * The game pages of Khel Originals: plain HTML with one module script and
 * one stylesheet. The page needs no bundler and shares fair.js with the
 * provider's server, so players verify rounds with the code that drew them.
 */

const here = import.meta.dirname

/** The page's files, served under a version path so browsers may keep them for a year. */
export const ASSETS: Readonly<Record<string, { readonly body: Buffer; readonly type: string }>> = {
  "table.js": { body: readFileSync(join(here, "assets", "table.js")), type: "text/javascript; charset=utf-8" },
  "table.css": { body: readFileSync(join(here, "assets", "table.css")), type: "text/css; charset=utf-8" },
  "fair.js": { body: readFileSync(join(here, "fair.js")), type: "text/javascript; charset=utf-8" }
}

export const ASSET_VERSION = createHash("sha256")
  .update(Object.values(ASSETS).map((asset) => asset.body.toString("utf8")).join("\0"))
  .digest("hex")
  .slice(0, 12)

const assetPath = (file: string) => `/games/khel/assets/${ASSET_VERSION}/${file}`

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!)

/** Only the site's own lobbies: a launch URL must not become an open redirect. */
export const lobbyHref = (lobby: string | undefined) =>
  Object.values(LOBBY_PATH).includes(lobby as never) ? lobby! : "/"

/**
 * Security headers of every game page: exactly what the page uses (its module
 * script and fair.js, its stylesheet, the favicon, calls to its own API) and
 * nothing else; it may not be framed, and the token in its address never
 * leaves in a Referer.
 */
export const PAGE_HEADERS = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
  "x-content-type-options": "nosniff"
} as const

export const gamePage = (game: GameCode, lobby: string) => {
  const rules = GAMES[game]
  const spots = rules.spots
    .map((spot) => `
        <button type="button" class="spot spot-${spot.id}" data-spot="${spot.id}" aria-describedby="stake-${spot.id}">
          <span class="spot-name">${escapeHtml(spot.label)}</span>
          <span class="spot-pays">pays ${escapeHtml(spot.pays)}</span>
          <span class="spot-stake" id="stake-${spot.id}" aria-live="polite">No bet</span>
        </button>`)
    .join("")
  const chips = DEFAULT_CHIPS
    .map((amount, i) => `
        <label class="chip"><input type="radio" name="chip" value="${amount}"${i === 0 ? " checked" : ""}><span>${chipLabel(amount)}</span></label>`)
    .join("")
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="robots" content="noindex">
  <title>${escapeHtml(rules.title)} · Khel Originals</title>
  <link rel="icon" href="/favicon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="${assetPath("table.css")}">
  <script type="module" src="${assetPath("table.js")}"></script>
</head>
<body data-game="${game}" data-min="${LIMITS.min}" data-max="${LIMITS.max}">
  <header class="top">
    <a class="back" href="${escapeHtml(lobby)}">&larr; Back to lobby</a>
    <h1>${escapeHtml(rules.title)}</h1>
    <p class="balance">Balance <strong id="balance" aria-live="polite">…</strong></p>
  </header>
  <main>
    <section class="board" aria-label="Table">
      <div id="board" class="board-cards" aria-live="polite"><p class="hint">Place your bets.</p></div>
      <p id="result" class="result" role="status"></p>
    </section>
    <section class="bets" aria-label="Your bets">
      <div class="spots">${spots}
      </div>
      <fieldset class="chips">
        <legend>Chip value (₹)</legend>${chips}
      </fieldset>
      <div class="actions">
        <button type="button" id="clear" class="secondary">Clear bets</button>
        <button type="button" id="rebet" class="secondary" disabled>Rebet</button>
        <button type="button" id="play" class="primary" disabled>${escapeHtml(rules.action)}</button>
      </div>
      <p class="limits">Bets ₹${LIMITS.min} to ₹${LIMITS.max.toLocaleString("en-IN")} a spot, up to ₹${LIMITS.total.toLocaleString("en-IN")} a round. Total bet <strong id="total">₹0</strong></p>
      <p id="message" class="message" role="alert"></p>
    </section>
    <section class="fair" aria-labelledby="fair-title">
      <h2 id="fair-title">Provably fair</h2>
      <p>Before you bet, the table shows the SHA-256 hash of the server seed for the next round. After the round the seed is shown: it must hash to the same value, and the two seeds give the outcome.</p>
      <dl>
        <dt>Next round's seed hash</dt><dd><code id="commit">…</code></dd>
        <dt>Round number (nonce)</dt><dd><code id="nonce">…</code></dd>
        <dt><label for="client-seed">Your seed</label></dt>
        <dd><input id="client-seed" name="client-seed" autocomplete="off" spellcheck="false" maxlength="64" pattern="[A-Za-z0-9_-]{1,64}"></dd>
      </dl>
      <div id="last-round" class="last-round" hidden>
        <h3>Last round</h3>
        <dl>
          <dt>Seed hash shown before</dt><dd><code id="last-commit"></code></dd>
          <dt>Server seed</dt><dd><code id="last-seed"></code></dd>
          <dt>Your seed</dt><dd><code id="last-client-seed"></code></dd>
          <dt>Nonce</dt><dd><code id="last-nonce"></code></dd>
        </dl>
        <button type="button" id="verify" class="secondary">Verify this round</button>
        <p id="verdict" role="status"></p>
      </div>
    </section>
    <section class="history" aria-labelledby="history-title">
      <h2 id="history-title">Your last rounds</h2>
      <table>
        <thead><tr><th scope="col">Round</th><th scope="col">Result</th><th scope="col">Bet</th><th scope="col">Return</th></tr></thead>
        <tbody id="history"><tr><td colspan="4">No rounds yet.</td></tr></tbody>
      </table>
    </section>
    <details class="rules"><summary>Rules</summary><p>${escapeHtml(rules.rules)}</p></details>
  </main>
</body>
</html>
`
}

/** What a wrong game link shows (unknown game, no token). */
export const errorPage = (message: string, lobby: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Khel Originals</title><link rel="icon" href="/favicon.svg" type="image/svg+xml"><link rel="stylesheet" href="${assetPath("table.css")}"></head>
<body><main class="error"><h1>Khel Originals</h1><p>${escapeHtml(message)}</p><p><a class="back" href="${escapeHtml(lobby)}">&larr; Back to lobby</a></p></main></body></html>
`
