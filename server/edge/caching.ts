import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { createHash } from "node:crypto"

/**
 * Answers that are the same for everyone who is not signed in, each with an ETag (a hash of the envelope): a
 * request whose If-None-Match names it gets 304 with no body, and the browser uses the envelope it has, so
 * clients read the same envelope either way. Each is revalidated on every use (`no-cache`): the sports tree
 * changes as events go in play, and an operator's switch (real-money deposits closed, a banner) must show at
 * once. With a bearer token an answer may be the player's own (no offers for a self-excluded player), so it is
 * `private`: a shared cache never keeps it.
 */
const SHARED: ReadonlySet<string> = new Set([
  "/api/v1/get-sports-data",
  "/api/v1/app-settings",
  "/api/v1/get-all-app-settings",
  "/api/v1/advertisement"
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
    const shared = (request.method === "GET" || request.method === "HEAD") && SHARED.has(request.url.split("?")[0]!)
    if (!shared) return httpEffect
    const policy = request.headers.authorization ? "private, no-cache" : "public, no-cache"
    return Effect.map(httpEffect, (response) => {
      if (response.status !== 200 || response.body._tag !== "Uint8Array") return response
      const etag = `"${createHash("sha256").update(response.body.text ?? response.body.body).digest("base64url").slice(0, 32)}"`
      const headers = { etag, "cache-control": policy, vary: "accept-encoding" }
      if (matchesEtag(request.headers["if-none-match"], etag)) return HttpServerResponse.empty({ status: 304, headers })
      return HttpServerResponse.setHeaders(response, headers)
    })
  }), { global: true })
