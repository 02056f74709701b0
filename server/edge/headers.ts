import { createHash } from "node:crypto"
import type { HttpServerRequest } from "effect/http"
import { HEAD_SCRIPT } from "../../src/root/headScript.ts"
import { HttpServerResponse } from "effect/http"

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`

/**
 * The site's Content-Security-Policy. The player's token lives in local
 * storage (SPEC section 3), so what keeps it is that no script but our own
 * ever runs: our files and the one inline script of index.html, allowed by
 * its SHA-256 (src/root/headScript.ts), no other inline script, no eval, no
 * other origin; nothing may
 * frame the site, no plugins, no <base>. Styles are our files and the
 * stylesheets given here by their text, allowed by their SHA-256: index.html
 * carries the app's stylesheet inline (vite.config.ts), and the site route
 * reads it from the file it serves (server/edge/site.ts). Images are our own
 * or data URLs (banners, logos and QR codes come as base64); the socket
 * connects to our own origin.
 */
export const siteCsp = (inlineStyles: ReadonlyArray<string> = []) => [
  "default-src 'self'",
  `script-src 'self' ${sha256(HEAD_SCRIPT)}`,
  ["style-src 'self'", ...inlineStyles.map(sha256)].join(" "),
  "img-src 'self' data:",
  "font-src 'self'",
  "media-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'"
].join("; ")

/** Every answer's policy but index.html's (which allows its own inline stylesheet). */
export const SITE_CSP = siteCsp()

/** JSON is never a document: it may load nothing and be framed by nobody. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

/** Paths answered with the envelope: the API, identity, and the Khel Originals tables' own API. */
export const isApiPath = (path: string) =>
  path === "/api" || path.startsWith("/api/") || path.startsWith("/identity/") || path.startsWith("/games/khel/api/")

/** HSTS for a year, once the request came over TLS (directly, or through a trusted proxy that says so). */
export const HSTS = "max-age=31536000; includeSubDomains"

/**
 * Headers every answer carries unless its route set its own (the Khel
 * Originals pages have their own, stricter policy): CSP, nosniff, no
 * Referer leaving the site, no framing, a separate browsing context group;
 * HSTS over TLS; and on the API `Cache-Control: no-store`, since its answers
 * carry tokens, balances and personal data that no cache may keep.
 * `api`: whether `path` is the API's (`isApiPath`, as the gate found it).
 */
export const securityHeaders = (
  request: HttpServerRequest.HttpServerRequest,
  path: string,
  api: boolean,
  response: HttpServerResponse.HttpServerResponse
) => {
  const has = (name: string) => response.headers[name] !== undefined
  // The API reference page (development only, never in production) loads its viewer from a CDN.
  const docs = path === "/api/docs"
  const headers: Record<string, string> = {}
  if (!has("content-security-policy") && !docs) headers["content-security-policy"] = api ? API_CSP : SITE_CSP
  if (!has("x-content-type-options")) headers["x-content-type-options"] = "nosniff"
  if (!has("referrer-policy")) headers["referrer-policy"] = "no-referrer"
  if (!has("x-frame-options")) headers["x-frame-options"] = "DENY"
  if (!has("cross-origin-opener-policy")) headers["cross-origin-opener-policy"] = "same-origin"
  if (request.protocol === "https") headers["strict-transport-security"] = HSTS
  if (api && !has("cache-control")) headers["cache-control"] = "no-store"
  return HttpServerResponse.setHeaders(response, headers)
}
