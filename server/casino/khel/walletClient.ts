import { Duration, Effect, Option, Schema } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { WalletResult, WalletSession } from "../../../src/schema/casino.ts"
import { Casino } from "../Casino.ts"
import { sign } from "../signature.ts"

/**
 * The seamless wallet as a provider reaches it: signed HTTP calls with the
 * provider's secret, answers decoded by the wallet's contract. Khel Originals
 * uses it exactly as a partner would, so its rounds test the real wallet.
 */

/**
 * The wallet said no: how the table answers it (`reason`, read here off the wallet's HTTP status, so the game
 * never sees a status) and the wallet's message. A provider switched off is a `Conflict`.
 */
export class WalletRefused extends Schema.TaggedError<WalletRefused>()("WalletRefused", {
  reason: Schema.Literals(["SessionEnded", "Forbidden", "Refused", "Conflict"]),
  message: Schema.String
}) {}
/** No answer, or one that is not the wallet's contract: the call may or may not have happened. */
export class WalletUnreachable extends Schema.TaggedError<WalletUnreachable>()("WalletUnreachable", { message: Schema.String }) {}

const Failure = Schema.Struct({ meta: Schema.Struct({ code: Schema.Int, message: Schema.String }) })
const decodeFailure = Schema.decodeUnknownOption(Failure)
const reasonOf = (status: number) => (status === 401 ? "SessionEnded" : status === 403 ? "Forbidden" : status === 422 ? "Refused" : "Conflict")

/** The wallet's calls for `provider`: debit, credit and rollback (`wallet`), and a session's player and balance. */
export const walletClient = (provider: string) =>
  Effect.gen(function*() {
    const casino = yield* Casino
    const http = yield* HttpClient.HttpClient

    /** A signed call to the seamless wallet, as any provider makes it; answers the envelope's data. */
    const post = (origin: string, path: string, body: unknown) =>
      Effect.gen(function*() {
        const secret = yield* casino.walletSecret(provider).pipe(Effect.orDie)
        if (!secret) return yield* new WalletRefused({ reason: "Conflict", message: "Khel Originals is switched off." })
        const text = JSON.stringify(body)
        const timestamp = String(Math.floor(Date.now() / 1000))
        const request = HttpClientRequest.post(`${origin}/api/v1/casino/wallet/${path}`).pipe(
          HttpClientRequest.setHeaders({ "x-provider": provider, "x-timestamp": timestamp, "x-signature": sign(secret, timestamp, text) }),
          HttpClientRequest.bodyText(text, "application/json")
        )
        const response = yield* http.execute(request).pipe(
          Effect.timeout(Duration.seconds(10)),
          Effect.mapError(() => new WalletUnreachable({ message: "The wallet did not answer." }))
        )
        const json = yield* response.json.pipe(Effect.mapError(() => new WalletUnreachable({ message: "The wallet's answer was not JSON." })))
        if (response.status === 200) return (json as { data?: unknown }).data
        const failure = decodeFailure(json)
        if (Option.isSome(failure) && response.status < 500) return yield* new WalletRefused({ reason: reasonOf(response.status), message: failure.value.meta.message })
        return yield* new WalletUnreachable({ message: `The wallet answered ${response.status}.` })
      })

    const contract = () => new WalletUnreachable({ message: "The wallet's answer did not match its contract." })
    const decodeResult = Schema.decodeUnknownEffect(WalletResult)
    const decodeSession = Schema.decodeUnknownEffect(WalletSession)
    const wallet = (origin: string, path: "debit" | "credit" | "rollback", body: unknown) =>
      post(origin, path, body).pipe(Effect.flatMap((data) => Effect.mapError(decodeResult(data), contract)))
    const walletSession = (origin: string, token: string) =>
      post(origin, "balance", { token }).pipe(Effect.flatMap((data) => Effect.mapError(decodeSession(data), contract)))

    return { wallet, walletSession }
  })
