import { Effect, Layer, Redacted, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import type { SqlError } from "effect/sql"
import type { IncomingMessage } from "node:http"
import { categoryOf } from "../../src/domain/casino.ts"
import { Api } from "../../src/schema/api.ts"
import { CurrentStaff, CurrentUser } from "../../src/schema/middleware.ts"
import { Audit } from "../desk/Audit.ts"
import { actorOf } from "../desk/Staff.ts"
import { CasinoProviderCode, ProviderSignature } from "../../src/schema/casino.ts"
import { type ApiError, ok, refuse } from "../../src/schema/envelope.ts"
import { renderArtwork } from "./artwork.ts"
import { Casino } from "./Casino.ts"
import { Khel, PlayPayload, TablePayload } from "./khel/Khel.ts"
import { isGameCode } from "./khel/Khel.ts"
import { ASSET_VERSION, ASSETS, errorPage, gamePage, lobbyHref, PAGE_HEADERS } from "./khel/pages.ts"
import { SeamlessWallet } from "./SeamlessWallet.ts"
import { signatureMatches, timestampFresh } from "./signature.ts"
import { sqlDefects } from "../edge/defects.ts"
import { failureResponse, toFailureResponse } from "../edge/envelopes.ts"
import { recordWalletCall, refusalOf } from "../observability/metrics.ts"

export const CasinoHandlers = HttpApiBuilder.group(Api, "casino", Effect.fn(function*(handlers) {
  const casino = yield* Casino
  return handlers.handleAll(sqlDefects(handlers, {
    casinoGames: ({ query }) => Effect.map(casino.lobby(query.slots === "true" ? "slots" : "live"), (games) => ok(games)),
    saCasinoGames: () => Effect.map(casino.lobby("sa"), (games) => ok(games))
  }))
}))

export const CasinoPlayHandlers = HttpApiBuilder.group(Api, "casinoPlay", Effect.fn(function*(handlers) {
  const casino = yield* Casino
  return handlers.handleAll(sqlDefects(handlers, {
    liveCasinoLaunch: ({ params }) =>
      Effect.gen(function*() {
        const url = yield* casino.launch(yield* CurrentUser, "live", params.game_id)
        return ok(url, url ? "Success" : "Game Not Available")
      }),
    saCasinoLaunch: ({ params }) =>
      Effect.gen(function*() {
        const url = yield* casino.launch(yield* CurrentUser, "sa", params.game_id)
        return ok(url, url ? "Success" : "Game Not Available")
      }),
    casinoBetsByDate: ({ query }) =>
      Effect.gen(function*() {
        const user = yield* CurrentUser
        return ok(yield* casino.betsByDate(user.id, query.provider, query.date))
      })
  }))
}))

export const CasinoAdminHandlers = HttpApiBuilder.group(Api, "casinoAdmin", Effect.fn(function*(handlers) {
  const casino = yield* Casino
  const audit = yield* Audit
  /** A write by the staff member of the request, audited with the record before it. */
  const audited = <A, E, B>(action: string, subject: { kind: string; id: string } | undefined, write: Effect.Effect<A, E>, before?: Effect.Effect<B, SqlError.SqlError>) =>
    Effect.flatMap(CurrentStaff, (staff) => audit.around(actorOf(staff), subject ? { action, subject } : { action }, write, before))
  const gameBefore = (id: string) => Effect.map(casino.adminGames, (games) => games.find((game) => game._id === id) ?? null)
  const providerBefore = (code: string) => Effect.map(casino.providers, (providers) => providers.find((provider) => provider.code === code) ?? null)
  return handlers.handleAll(sqlDefects(handlers, {
    games: () => Effect.map(casino.adminGames, (games) => ok(games)),
    addGame: ({ payload }) => Effect.map(audited("casino.game.add", undefined, casino.addGame(payload)), (game) => ok(game, "Game added")),
    updateGame: ({ params, payload }) =>
      Effect.map(audited("casino.game.update", { kind: "casino-game", id: params.id }, casino.updateGame(params.id, payload), gameBefore(params.id)), (game) => ok(game, "Game updated")),
    settings: () => Effect.map(casino.settings, (settings) => ok(settings)),
    updateSettings: ({ payload }) =>
      Effect.map(audited("casino.settings.update", undefined, casino.updateSettings(payload), casino.settings), (settings) => ok(settings, "Casino settings saved")),
    providers: () => Effect.map(casino.providers, (providers) => ok(providers)),
    updateProvider: ({ params, payload }) =>
      Effect.map(audited("casino.provider.update", { kind: "casino-provider", id: params.code }, casino.updateProvider(params.code, payload), providerBefore(params.code)), (provider) => ok(provider, "Provider saved"))
  }))
}))

/** A wallet call, counted by its operation and result (`ok`, or the reason it was refused). */
const counted = (operation: string) => <A, E, R>(call: Effect.Effect<A, E, R>) =>
  Effect.onExit(call, (exit) => recordWalletCall(operation, refusalOf(exit)))

export const CasinoWalletHandlers = HttpApiBuilder.group(Api, "casinoWallet", Effect.fn(function*(handlers) {
  const wallet = yield* SeamlessWallet
  return handlers.handleAll(sqlDefects(handlers, {
    balance: ({ payload }) => Effect.gen(function*() {
      return ok(yield* wallet.balance(yield* CasinoProviderCode, payload))
    }).pipe(counted("balance")),
    debit: ({ payload }) => Effect.gen(function*() {
      return ok(yield* wallet.debit(yield* CasinoProviderCode, payload))
    }).pipe(counted("debit")),
    credit: ({ payload }) => Effect.gen(function*() {
      return ok(yield* wallet.credit(yield* CasinoProviderCode, payload))
    }).pipe(counted("credit")),
    rollback: ({ payload }) => Effect.gen(function*() {
      return ok(yield* wallet.rollback(yield* CasinoProviderCode, payload))
    }).pipe(counted("rollback"))
  }))
}))

/** Checks the provider's HMAC signature over the raw body (docs/casino.md) before any wallet call runs. */
export const ProviderSignatureLive = Layer.effect(
  ProviderSignature,
  Effect.gen(function*() {
    const casino = yield* Casino
    return ProviderSignature.of({
      signature: (httpEffect, { credential }) =>
        Effect.gen(function*() {
          const request = yield* HttpServerRequest.HttpServerRequest
          const provider = request.headers["x-provider"] ?? ""
          const timestamp = request.headers["x-timestamp"] ?? ""
          const secret = provider ? yield* casino.walletSecret(provider).pipe(Effect.orDie) : undefined
          if (!secret) return yield* refuse("SessionEnded", "Unknown provider, or its wallet access is not set up.")
          if (!timestampFresh(timestamp)) return yield* refuse("SessionEnded", "X-Timestamp is missing or more than five minutes off.")
          const body = yield* request.text.pipe(Effect.mapError(() => refuse("InvalidInput", "The request body could not be read.")))
          if (!signatureMatches(secret, timestamp, body, Redacted.value(credential))) return yield* refuse("SessionEnded", "The signature does not match.")
          return yield* Effect.provideService(httpEffect, CasinoProviderCode, provider)
        })
    })
  })
)

// ---- artwork and the Khel Originals pages (plain routes, outside the API contract) ----

const ARTWORK_CACHE = "public, max-age=2592000, stale-while-revalidate=86400"

const notFoundImage = HttpServerResponse.text("Not found", { status: 404, headers: { "cache-control": "public, max-age=300" } })

const artwork = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const casino = yield* Casino
    const { provider = "", category = "", file = "" } = yield* HttpRouter.params
    if (!file.endsWith(".png")) return notFoundImage
    const game = yield* casino.artwork(provider, category, file.slice(0, -4)).pipe(Effect.orDie)
    if (!game) return notFoundImage
    // The address stays `.png` (it is in the catalogue and with partners); a browser that takes WebP gets WebP.
    const format = /\bimage\/webp\b/.test(request.headers.accept ?? "") ? "webp" : "png"
    const art = yield* Effect.promise(() =>
      renderArtwork({ title: game.title, category: categoryOf(game.provider, game.kind, game.category), kind: game.kind }, format)
    )
    const headers = { "cache-control": ARTWORK_CACHE, etag: art.etag, vary: "accept" }
    if (request.headers["if-none-match"] === art.etag) return HttpServerResponse.empty({ status: 304, headers })
    return HttpServerResponse.uint8Array(art.bytes, { contentType: art.contentType, headers })
  })

/**
 * Where the wallet is, seen from this server: the address this very request
 * came in on. The built-in provider calls the wallet over HTTP, as a partner
 * would, without any extra configuration.
 */
export const walletOrigin = (request: HttpServerRequest.HttpServerRequest) => {
  const socket = (request.source as IncomingMessage).socket
  const address = (socket.localAddress ?? "127.0.0.1").replace(/^::ffff:/, "")
  return `http://${address.includes(":") ? `[${address}]` : address}:${socket.localPort}`
}

const page = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const { game = "" } = yield* HttpRouter.params
    const url = new URL(request.url, "http://site")
    const lobby = lobbyHref(url.searchParams.get("lobby") ?? undefined)
    const html = (body: string, status = 200) => HttpServerResponse.text(body, { status, contentType: "text/html; charset=utf-8", headers: PAGE_HEADERS })
    if (!isGameCode(game)) return html(errorPage("There is no such game.", lobby), 404)
    if (!url.searchParams.get("token")) return html(errorPage("This game opens from the lobby. Go back and choose it there.", lobby), 400)
    return html(gamePage(game, lobby))
  })

const asset = Effect.gen(function*() {
  const { version = "", file = "" } = yield* HttpRouter.params
  const found = version === ASSET_VERSION ? ASSETS[file] : undefined
  if (!found) return HttpServerResponse.text("Not found", { status: 404 })
  return HttpServerResponse.uint8Array(found.body, {
    contentType: found.type,
    headers: { "cache-control": "public, max-age=31536000, immutable", "x-content-type-options": "nosniff" }
  })
})

/** The provider's own API for its pages, answered in the same envelope as ours. */
const khelApi = <A, I>(
  schema: Schema.Codec<A, I>,
  run: (khel: Khel["Service"], origin: string, payload: A) => Effect.Effect<unknown, ApiError | SqlError.SqlError>
) =>
  (request: HttpServerRequest.HttpServerRequest) =>
    Effect.gen(function*() {
      const khel = yield* Khel
      const json = yield* request.json.pipe(Effect.mapError(() => refuse("InvalidInput", "The request body must be JSON.")))
      const payload = yield* Schema.decodeUnknownEffect(schema)(json).pipe(
        Effect.mapError(() => refuse("InvalidInput", "The request does not match what the table expects."))
      )
      const data = yield* run(khel, walletOrigin(request), payload)
      return HttpServerResponse.jsonUnsafe(ok(data), { headers: { "cache-control": "no-store" } })
    }).pipe(Effect.catchCause(toFailureResponse))

export const CasinoRoutes = Layer.mergeAll(
  HttpRouter.add("GET", "/images/:provider/:category/:file", artwork),
  HttpRouter.add("GET", "/games/khel/:game", page),
  HttpRouter.add("GET", "/games/khel/assets/:version/:file", asset),
  HttpRouter.add("POST", "/games/khel/api/table", khelApi(TablePayload, (khel, origin, payload) => khel.table(origin, payload))),
  HttpRouter.add("POST", "/games/khel/api/play", khelApi(PlayPayload, (khel, origin, payload) => khel.play(origin, payload))),
  HttpRouter.add("*", "/games/*", () => Effect.succeed(failureResponse(404, "There is no such game page.")))
)
