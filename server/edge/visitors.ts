import { Context, Effect, Layer } from "effect"
import type { HttpServerRequest } from "effect/http"
import { SqlClient } from "effect/sql"
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import { serverKey } from "../db/serverKeys.ts"
import { ServerConfig } from "../config.ts"
import { RateLimits } from "../limits/RateLimits.ts"

export const VISITOR_COOKIE = "khel_visitor"

const DAY = 86_400
/** How long a browser keeps its cookie, and how long a signed one is taken. */
const LIFETIME = 400 * DAY
/** A cookie older than this is given again with the next page, so a browser that keeps visiting keeps its id. */
const REFRESH_AFTER = 30 * DAY

const sign = (key: string, payload: string) => createHmac("sha256", key).update(payload).digest("base64url").slice(0, 32)

/** "<id>.<issued, unix seconds>.<signature>" → the id and when it was issued, when the signature is this key's. */
const read = (key: string, cookie: string | undefined) => {
  const match = cookie === undefined ? null : /^([\w-]{22})\.(\d{1,12})\.([\w-]{32})$/.exec(cookie)
  if (!match) return undefined
  const [, id, issued, signature] = match
  const expected = Buffer.from(sign(key, `${id}.${issued}`))
  if (!timingSafeEqual(expected, Buffer.from(signature!))) return undefined
  return { id: id!, issued: Number(issued) }
}

/**
 * The visitor cookie: a random id the server signs (with this database's
 * `visitor` key, migration 0123) and gives with every page it serves, so a
 * request carrying a valid one comes from a browser that loaded one of our
 * pages. It stands for the browser: a session records it as the device it
 * signed in from (a referral shared with a device is withheld), and the
 * vitals report counts each visitor once. HttpOnly and SameSite=Strict: no
 * script reads it, no other site sends it. At most
 * `visitorsPerAddressPerHour` new ones go to one address in an hour.
 */
export class Visitors extends Context.Service<Visitors, {
  /** The visitor a request comes from, if its cookie is valid. */
  idOf(request: HttpServerRequest.HttpServerRequest, now?: number): string | undefined
  /** The Set-Cookie header for a page served to `request`, when it needs one (none, old, or not ours). */
  cookieFor(request: HttpServerRequest.HttpServerRequest): Effect.Effect<string | undefined>
}>()("khel/Visitors") {
  static readonly layer = Layer.effect(
    Visitors,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const { limits } = yield* ServerConfig
      const key = yield* serverKey("visitor")
      const minted = (yield* RateLimits).make({ name: "visitors", points: limits.visitorsPerAddressPerHour, seconds: 3600 })
      const seconds = () => Math.floor(Date.now() / 1000)

      const valid = (request: HttpServerRequest.HttpServerRequest, now = seconds()) => {
        const cookie = read(key, request.cookies[VISITOR_COOKIE])
        return cookie && now - cookie.issued < LIFETIME && cookie.issued <= now + 60 ? cookie : undefined
      }

      const cookieFor = (request: HttpServerRequest.HttpServerRequest) =>
        Effect.gen(function*() {
          const now = seconds()
          const current = valid(request, now)
          if (current && now - current.issued < REFRESH_AFTER) return undefined
          if (!current) {
            const address = request.remoteAddress._tag === "Some" ? request.remoteAddress.value : "unknown"
            if (!(yield* minted.take(address)).allowed) return undefined
          }
          const id = current?.id ?? randomBytes(16).toString("base64url")
          const value = `${id}.${now}.${sign(key, `${id}.${now}`)}`
          return `${VISITOR_COOKIE}=${value}; Path=/; Max-Age=${LIFETIME}; HttpOnly; SameSite=Strict${request.protocol === "https" ? "; Secure" : ""}`
        })

      return Visitors.of({ idOf: (request, now) => valid(request, now === undefined ? undefined : Math.floor(now / 1000))?.id, cookieFor })
    })
  )
}
