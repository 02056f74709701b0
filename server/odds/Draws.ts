import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { EventFairness } from "../../src/schema/betting.ts"
import { decodeFirst, decodeRows } from "../db/rows.ts"
import { randomHex } from "../casino/signature.ts"
import { commitmentOf, seedFor } from "./fair.ts"

const Secret = Schema.Struct({ id: Schema.Int, secret: Schema.NullOr(Schema.String) })
const Draw = Schema.Struct({ eventId: Schema.String, secretId: Schema.Int, seed: Schema.NullOr(Schema.String), revealedAt: Schema.NullOr(Schema.Date) })
const Rotated = Schema.Struct({ id: Schema.Int })

/** A retired secret is erased once its events have all revealed their seeds, and no sooner than this after it retired. */
const ERASE_AFTER = "1 hour"

/**
 * The feed's secret and the events' seeds (server/odds/fair.ts): the seed of
 * an event is fixed by the secret it was committed to when it was made
 * (`event_draws`, migration 0100), the same on every server and after every
 * restart, and known only to the servers until the event has settled.
 */
export class Draws extends Context.Service<Draws, {
  /** The seeds of these events. */
  seeds(eventIds: ReadonlyArray<string>): Effect.Effect<ReadonlyMap<string, string>, SqlError.SqlError>
  /** What anyone may see of an event's draws: its commitment, and its seed once revealed; undefined for no such event. */
  fairness(eventId: string): Effect.Effect<EventFairness | undefined, SqlError.SqlError>
  /** Publishes the event's seed (it has settled), inside the caller's transaction. */
  reveal(eventId: string): Effect.Effect<void, SqlError.SqlError>
  /**
   * A new secret for every event made from now on (events made already keep theirs), and the retired secrets
   * whose events have all settled erased: the new secret's id and how many were erased.
   */
  readonly rotate: Effect.Effect<{ readonly id: number; readonly erased: number }, SqlError.SqlError>
  /** Erases retired secrets whose events have all revealed their seeds; how many. */
  readonly eraseSpent: Effect.Effect<number, SqlError.SqlError>
}>()("khel/Draws") {
  static readonly layer = Layer.effect(
    Draws,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // A database's first secret, made by the first server to start on it (before any event is made).
      yield* sql`
        INSERT INTO feed_secrets (id, secret) SELECT 1, ${randomHex(32)} WHERE NOT EXISTS (SELECT 1 FROM feed_secrets)
        ON CONFLICT (id) DO NOTHING
      `
      // Seeds are kept once known (they never change); secrets are read when a seed is made, never kept.
      const known = new Map<string, string>()

      const draws = (eventIds: ReadonlyArray<string>) =>
        sql`SELECT event_id, secret_id, seed, revealed_at FROM event_draws WHERE event_id IN ${sql.in(eventIds)}`.pipe(decodeRows(Draw))

      const seedsOf = (rows: ReadonlyArray<typeof Draw.Type>) =>
        Effect.gen(function*() {
          const ids = [...new Set(rows.filter((row) => row.seed === null).map((row) => row.secretId))]
          const secrets = ids.length === 0 ? [] : yield* sql`SELECT id, secret FROM feed_secrets WHERE id IN ${sql.in(ids)}`.pipe(decodeRows(Secret))
          const secretOf = new Map(secrets.map((row) => [row.id, row.secret]))
          for (const row of rows) {
            const secret = secretOf.get(row.secretId)
            if (row.seed === null && !secret) return yield* Effect.die(new Error(`feed secret ${row.secretId} is gone while event ${row.eventId} has not revealed its seed`))
            known.set(row.eventId, row.seed ?? seedFor(secret!, row.eventId))
          }
        })

      const seeds = (eventIds: ReadonlyArray<string>) =>
        Effect.gen(function*() {
          const wanted = eventIds.filter((id) => !known.has(id))
          if (wanted.length > 0) {
            let rows = yield* draws(wanted)
            if (rows.length < wanted.length) {
              // Events made before there were draws: committed now, to the current secret.
              yield* sql`
                INSERT INTO event_draws (event_id, secret_id)
                SELECT e.id, (SELECT max(id) FROM feed_secrets WHERE retired_at IS NULL) FROM events e WHERE e.id IN ${sql.in(wanted)}
                ON CONFLICT (event_id) DO NOTHING
              `
              rows = yield* draws(wanted)
            }
            yield* seedsOf(rows)
          }
          return new Map(eventIds.flatMap((id) => (known.has(id) ? [[id, known.get(id)!] as const] : [])))
        }).pipe(Effect.withSpan("Draws.seeds"))

      const fairness = (eventId: string) =>
        Effect.gen(function*() {
          const seed = (yield* seeds([eventId])).get(eventId)
          if (!seed) return undefined
          const [row] = yield* draws([eventId])
          return {
            eventId,
            commitment: commitmentOf(seed),
            seed: row?.seed ?? null,
            revealedAt: row?.revealedAt?.toISOString() ?? null
          }
        })

      const reveal = (eventId: string) =>
        Effect.gen(function*() {
          const seed = (yield* seeds([eventId])).get(eventId)
          if (seed) yield* sql`UPDATE event_draws SET seed = ${seed}, revealed_at = now() WHERE event_id = ${eventId} AND seed IS NULL`
        })

      const eraseSpent = sql`
        UPDATE feed_secrets s SET secret = NULL, erased_at = now()
         WHERE s.secret IS NOT NULL AND s.retired_at < now() - ${ERASE_AFTER}::interval
           AND NOT EXISTS (SELECT 1 FROM event_draws d WHERE d.secret_id = s.id AND d.seed IS NULL)
        RETURNING s.id
      `.pipe(Effect.map((rows) => rows.length))

      const rotate = Effect.gen(function*() {
        const rotated = yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`LOCK TABLE feed_secrets IN EXCLUSIVE MODE`
          const row = yield* sql`
            INSERT INTO feed_secrets (id, secret) SELECT coalesce(max(id), 0) + 1, ${randomHex(32)} FROM feed_secrets RETURNING id
          `.pipe(decodeFirst(Rotated))
          yield* sql`UPDATE feed_secrets SET retired_at = now() WHERE id < ${row!.id} AND retired_at IS NULL`
          return row!.id
        }))
        // Events already over under an older secret, whose seed was never revealed (cancelled, or over before draws
        // were published): revealed now, so their secret can go.
        // Cast, not decoded: ids only, used as keys.
        const over = yield* sql<{ id: string }>`
          SELECT d.event_id AS id FROM event_draws d JOIN events e ON e.id = d.event_id
           WHERE d.seed IS NULL AND d.secret_id < ${rotated} AND e.status IN ('finished', 'cancelled')
        `
        for (const event of over) yield* reveal(event.id)
        return { id: rotated, erased: yield* eraseSpent }
      })

      return Draws.of({ seeds, fairness, reveal, rotate, eraseSpent })
    })
  )
}
