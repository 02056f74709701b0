import { Clock, Context, Duration, Effect, FiberSet, Layer, Schedule, Schema } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { SqlClient, type SqlError } from "effect/sql"
import webpush from "web-push"
import { eventHref } from "../../src/domain/catalogue.ts"
import { isPushService, matchStarting, type Notice, REMINDER_MINUTES } from "../../src/domain/push.ts"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import type { PushMessage, PushSubscriptionPayload } from "../../src/schema/push.ts"
import { ServerConfig } from "../config.ts"
import { decodeRows } from "../db/rows.ts"
import type { SessionUser } from "../identity/Sessions.ts"
import { vapidKeys } from "./vapid.ts"

/** How long a push service keeps a notification for a browser that is offline. */
const TTL_SECONDS = 24 * 60 * 60

const Subscription = Schema.Struct({ endpoint: Schema.String, p256dh: Schema.String, auth: Schema.String })
const Starting = Schema.Struct({
  eventId: Schema.String,
  name: Schema.String,
  slug: Schema.String,
  leagueSlug: Schema.String,
  sportSlug: Schema.String,
  isRacing: Schema.Boolean,
  userId: Schema.String
})
const Claimed = Schema.Struct({ key: Schema.String })

export const PUSH_MESSAGES = {
  unavailable: "Notifications are not available on this site.",
  notAPushService: "This browser's push service is not one we send to."
} as const

/**
 * Web Push to a signed-in player's browsers. A subscription is kept per
 * browser (its endpoint) for the session that made it; a push goes only
 * while that session lives, and ending the session removes it. Messages are
 * encrypted to the browser's keys and signed with the server's VAPID key
 * (`web-push`, RFC 8291 and 8292), then POSTed to the browser's push
 * service, which must be one of the known services (PUSH_SERVICES): a
 * subscription is a URL the player chose, and the server must not POST
 * wherever it points. A service that answers 404 or 410 has dropped the
 * subscription, so it is removed.
 *
 * Sends run in the background (`notify` returns at once, after the caller's
 * commit), so a slow push service never holds an approval or a settlement;
 * `settled` waits for those in flight. Reminders of matches about to start
 * are found by every server every 30 s and sent once: the first server to
 * claim a reminder's key sends it.
 */
export class Push extends Context.Service<Push, {
  /** The VAPID public key browsers subscribe with; undefined when push is off (production without keys). */
  readonly publicKey: string | undefined
  subscribe(user: SessionUser, subscription: PushSubscriptionPayload): Effect.Effect<void, ApiError | SqlError.SqlError>
  unsubscribe(user: SessionUser, endpoint: string): Effect.Effect<void, SqlError.SqlError>
  /** The subscriptions of sessions that ended (a logout, a password change) go with them. */
  forgetSessions(sessionIds: ReadonlyArray<string>): Effect.Effect<void, SqlError.SqlError>
  /** Sends `notice` to every live subscription of the player, in the background; never fails. */
  notify(userId: string, notice: Notice): Effect.Effect<void>
  /** Reminds players of the matches they bet on that start within 15 minutes, each once; how many were sent. */
  readonly remindStarts: Effect.Effect<number, SqlError.SqlError>
  /** Every send started so far has finished. */
  readonly settled: Effect.Effect<void>
}>()("khel/Push") {
  static readonly layer = Layer.effect(
    Push,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const config = yield* ServerConfig
      const http = yield* HttpClient.HttpClient
      const vapid = yield* vapidKeys(config)
      const sends = yield* FiberSet.make<void, never>()

      const subscribe = Effect.fn("Push.subscribe")(function*(user: SessionUser, subscription: PushSubscriptionPayload) {
        if (!vapid) return yield* refuse("Unavailable", PUSH_MESSAGES.unavailable)
        if (!isPushService(subscription.endpoint, config.push.services)) return yield* refuse("InvalidInput", PUSH_MESSAGES.notAPushService)
        yield* sql`
          INSERT INTO push_subscriptions (endpoint, user_id, session_id, p256dh, auth)
          VALUES (${subscription.endpoint}, ${user.id}, ${user.sessionId}, ${subscription.keys.p256dh}, ${subscription.keys.auth})
          ON CONFLICT (endpoint) DO UPDATE
             SET user_id = EXCLUDED.user_id, session_id = EXCLUDED.session_id, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth, created_at = now()
        `
      })

      const unsubscribe = Effect.fn("Push.unsubscribe")(function*(user: SessionUser, endpoint: string) {
        yield* sql`DELETE FROM push_subscriptions WHERE endpoint = ${endpoint} AND user_id = ${user.id}`
      })

      const forgetSessions = Effect.fn("Push.forgetSessions")(function*(sessionIds: ReadonlyArray<string>) {
        if (sessionIds.length > 0) yield* sql`DELETE FROM push_subscriptions WHERE session_id IN ${sql.in(sessionIds)}`
      })

      /** One message to one browser; a subscription its service no longer knows is removed. */
      const send = (subscription: typeof Subscription.Type, message: PushMessage) =>
        Effect.gen(function*() {
          const details = webpush.generateRequestDetails(
            { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
            JSON.stringify(message),
            { vapidDetails: { subject: config.push.subject, ...vapid! }, TTL: TTL_SECONDS, urgency: "high" }
          )
          // The body sets its own type and length.
          const headers = Object.fromEntries(Object.entries(details.headers).filter(([name]) => !/^content-(type|length)$/i.test(name)).map(([name, value]) => [name, String(value)]))
          const request = HttpClientRequest.post(details.endpoint).pipe(
            HttpClientRequest.setHeaders(headers),
            HttpClientRequest.bodyUint8Array(details.body as Uint8Array, "application/octet-stream")
          )
          const response = yield* http.execute(request).pipe(Effect.timeout(Duration.seconds(10)))
          if (response.status === 404 || response.status === 410) {
            yield* sql`DELETE FROM push_subscriptions WHERE endpoint = ${subscription.endpoint}`
            yield* Effect.logInfo("push subscription gone: removed", { status: response.status })
          } else if (response.status >= 300) {
            yield* Effect.logWarning("push refused", { status: response.status, kind: message.kind })
          }
        }).pipe(Effect.catchCause((cause) => Effect.logWarning("push failed", cause)))

      const deliver = (userId: string, notice: Notice) =>
        Effect.gen(function*() {
          const now = new Date(yield* Clock.currentTimeMillis)
          const subscriptions = yield* sql`
            SELECT p.endpoint, p.p256dh, p.auth
              FROM push_subscriptions p JOIN sessions s ON s.id = p.session_id
             WHERE p.user_id = ${userId} AND s.revoked_at IS NULL AND s.expires_at > ${now}
          `.pipe(decodeRows(Subscription))
          yield* Effect.forEach(subscriptions, (subscription) => send(subscription, notice), { discard: true, concurrency: 4 })
        }).pipe(Effect.catchCause((cause) => Effect.logWarning("push failed", cause)), Effect.withSpan("Push.deliver", { attributes: { kind: notice.kind } }))

      const notify = (userId: string, notice: Notice): Effect.Effect<void> =>
        vapid ? Effect.asVoid(FiberSet.run(sends, deliver(userId, notice))) : Effect.void

      const remindStarts = Effect.gen(function*() {
        if (!vapid) return 0
        const now = yield* Clock.currentTimeMillis
        const from = new Date(now)
        const until = new Date(now + REMINDER_MINUTES * 60_000)
        // Events about to start (by their index), the players with open bets on them who have a live subscription.
        const due = yield* sql`
          SELECT DISTINCT e.id AS event_id, e.name, e.slug, l.slug AS league_slug, s.slug AS sport_slug, s.is_racing, b.user_id
            FROM events e
            JOIN leagues l ON l.id = e.league_id
            JOIN sports s ON s.id = l.sport_id
            JOIN markets m ON m.event_id = e.id
            JOIN bets b ON b.market_id = m.id AND b.status = 'open'
           WHERE e.status = 'scheduled' AND e.starts_at > ${from} AND e.starts_at <= ${until}
             AND EXISTS (
               SELECT 1 FROM push_subscriptions p JOIN sessions se ON se.id = p.session_id
                WHERE p.user_id = b.user_id AND se.revoked_at IS NULL AND se.expires_at > ${from}
             )
        `.pipe(decodeRows(Starting))
        let sent = 0
        for (const row of due) {
          // The first server to claim the reminder sends it; the others find the key taken.
          const claimed = yield* sql`
            INSERT INTO push_sent (key) VALUES (${`starts:${row.eventId}:${row.userId}`}) ON CONFLICT (key) DO NOTHING RETURNING key
          `.pipe(decodeRows(Claimed))
          if (claimed.length === 0) continue
          const url = row.isRacing ? "/racing" : eventHref({ slugName: row.sportSlug }, { slugName: row.leagueSlug }, { slugName: row.slug })
          yield* notify(row.userId, matchStarting({ id: row.eventId, name: row.name, url }))
          sent++
        }
        return sent
      }).pipe(Effect.withSpan("Push.remindStarts"))

      return Push.of({
        publicKey: vapid?.publicKey,
        subscribe,
        unsubscribe,
        forgetSessions,
        notify,
        remindStarts,
        settled: FiberSet.awaitEmpty(sends)
      })
    })
  )
}

/** How often each server looks for matches about to start. */
const REMINDER_SCAN = Duration.seconds(30)

/** Each server looks for matches about to start every 30 s (the CLI does not: it only sends what its commands do). */
export const MatchReminders = Layer.effectDiscard(Push.use((push) =>
  push.remindStarts.pipe(
    Effect.catchCause((cause) => Effect.logWarning("match reminders failed", cause)),
    Effect.repeat(Schedule.spaced(REMINDER_SCAN)),
    Effect.forkScoped
  )
))
