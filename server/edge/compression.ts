import { Effect } from "effect"
import { HttpBody, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { promisify } from "node:util"
import { gzip } from "node:zlib"

const gzipBytes = promisify(gzip)

/** Below this a gzip header and a round of zlib cost more than they save (a bet's answer is about 300 bytes). */
const MIN_BYTES = 1024

/** How many compressed answers are kept by ETag: the shared answers (sports tree, banners, settings) as they change. */
const KEPT = 32

/**
 * Whether the client takes a body in this content coding (RFC 9110 §12.5.3): named, or covered by `*`, with a
 * weight above zero. Every browser takes gzip; brotli too (Chromium and Firefox over HTTPS and on localhost).
 */
export const accepts = (request: HttpServerRequest.HttpServerRequest, coding: "gzip" | "br") => {
  const weights = new Map<string, number>()
  for (const item of (request.headers["accept-encoding"] ?? "").split(",")) {
    const [name = "", ...params] = item.split(";").map((part) => part.trim().toLowerCase())
    const q = params.find((param) => param.startsWith("q="))
    if (name !== "") weights.set(name, q === undefined ? 1 : Number(q.slice(2)) || 0)
  }
  return (weights.get(coding) ?? weights.get("*") ?? 0) > 0
}

/**
 * The weak form of a strong ETag. A gzip body is another representation of the same answer: it keeps the tag's
 * value, weakened (as nginx does), so a conditional request matches whichever encoding the client holds
 * (`matchesEtag` compares by value).
 */
const weak = (etag: string) => (etag.startsWith("W/") ? etag : `W/${etag}`)

/** Compressed answers by strong ETag, oldest first; a promise, so requests that arrive together compress once. */
const kept = new Map<string, Promise<Uint8Array>>()

const compressKept = (etag: string, body: Uint8Array) => {
  let compressed = kept.get(etag)
  if (compressed === undefined) {
    compressed = gzipBytes(body)
    kept.set(etag, compressed)
    if (kept.size > KEPT) kept.delete(kept.keys().next().value!)
    // A failure is not kept: the next request tries again.
    compressed.catch(() => kept.delete(etag))
  }
  return compressed
}

/**
 * JSON answers to a GET, from 1 KB up, travel gzip to a client that accepts it. The sports tree (about 50 KB of
 * JSON, 10 KB gzip) and the banners (61 KB of base64, 46 KB gzip) stand between a phone on slow 4G and the page's
 * first paint: each is read before the preloader closes. An answer with an ETag (`SharedCaching`) is compressed
 * once per tag; others (a statement, the game lists) on each request, in zlib's thread pool. Every answer is a
 * bearer-token API's, which a page on another site cannot make the browser send with the player's token, so the
 * length of a compressed secret is never measurable from outside (BREACH). Gzip, not brotli: on these answers
 * brotli at the qualities a request can afford saves 1–6 % (the banners are base64 WebP, which neither shrinks);
 * the build's scripts, compressed once, are where brotli pays (scripts/compress.ts).
 */
export const Compression = HttpRouter.middleware((httpEffect) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    if (request.method !== "GET" || !accepts(request, "gzip")) return httpEffect
    return Effect.flatMap(httpEffect, (response) => {
      const etag = response.headers.etag
      if (response.status === 304 && etag !== undefined) return Effect.succeed(HttpServerResponse.setHeader(response, "etag", weak(etag)))
      const body = response.body
      if (
        response.status !== 200 || body._tag !== "Uint8Array" || body.body.byteLength < MIN_BYTES ||
        !body.contentType.startsWith("application/json") || response.headers["content-encoding"] !== undefined
      ) return Effect.succeed(response)
      return Effect.promise(() => (etag === undefined ? gzipBytes(body.body) : compressKept(etag, body.body))).pipe(
        Effect.map((compressed) =>
          HttpServerResponse.setHeaders(HttpServerResponse.setBody(response, HttpBody.uint8Array(compressed, body.contentType)), {
            "content-encoding": "gzip",
            vary: "accept-encoding",
            ...(etag === undefined ? {} : { etag: weak(etag) })
          })
        ),
        // zlib does not fail on bytes in memory; were it to, the answer goes as it is.
        Effect.catchCause(() => Effect.succeed(response))
      )
    })
  }), { global: true })
