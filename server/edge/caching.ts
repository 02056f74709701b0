import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { createHash } from "node:crypto"

/**
 * Answers that are the same for everyone, with how long a browser or proxy may keep them. Each carries an
 * ETag (a hash of the envelope), and a request whose If-None-Match names it gets 304 with no body: the
 * browser then uses the envelope it has, so clients read the same envelope either way. The sports tree
 * changes as events go in play, so it is revalidated on every use; settings and banners change when an
 * operator edits them, so a minute's staleness (and a revalidation in the background for ten) is fine.
 */
const SHARED: ReadonlyMap<string, string> = new Map([
  ["/api/v1/get-sports-data", "public, no-cache"],
  ["/api/v1/app-settings", "public, max-age=60, stale-while-revalidate=600"],
  ["/api/v1/get-all-app-settings", "public, max-age=60, stale-while-revalidate=600"],
  ["/api/v1/advertisement", "public, max-age=60, stale-while-revalidate=600"]
])

/** Whether an If-None-Match header names this ETag (a list, or `*`; weak tags compare by their value). */
export const matchesEtag = (ifNoneMatch: string | undefined, etag: string) =>
  ifNoneMatch !== undefined && ifNoneMatch.split(",").some((tag) => {
    const value = tag.trim().replace(/^W\//, "")
    return value === "*" || value === etag
  })

/** Global, so it must cost the other requests (bets) nothing but a look-up. */
export const SharedCaching = HttpRouter.middleware((httpEffect) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const policy = request.method === "GET" || request.method === "HEAD" ? SHARED.get(request.url.split("?")[0]!) : undefined
    if (policy === undefined) return httpEffect
    return Effect.map(httpEffect, (response) => {
      if (response.status !== 200 || response.body._tag !== "Uint8Array") return response
      const etag = `"${createHash("sha256").update(response.body.text ?? response.body.body).digest("base64url").slice(0, 32)}"`
      const headers = { etag, "cache-control": policy, vary: "accept-encoding" }
      if (matchesEtag(request.headers["if-none-match"], etag)) return HttpServerResponse.empty({ status: 304, headers })
      return HttpServerResponse.setHeaders(response, headers)
    })
  }), { global: true })
