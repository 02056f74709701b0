import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { type IntegritySignal, SignalKind, type SignalPage, SignalPlayer } from "../../src/schema/integrity.ts"
import { decodeRows } from "../db/rows.ts"

/** A signal to record: what kind, who, what was shared, one line for the operator and ids to follow. */
export interface SignalInput {
  readonly kind: SignalKind
  readonly userIds: ReadonlyArray<string>
  readonly subject: string
  readonly detail: string
  readonly context?: Readonly<Record<string, unknown>>
}

export interface SignalFilter {
  readonly kind?: SignalKind | undefined
  readonly userId?: string | undefined
  /** A signal id: the page after it. */
  readonly before?: string | undefined
  readonly limit?: number | undefined
}

const SignalRow = Schema.Struct({
  id: Schema.String,
  kind: SignalKind,
  subject: Schema.String,
  detail: Schema.String,
  context: Schema.Record(Schema.String, Schema.Unknown),
  createdAt: Schema.Date,
  players: Schema.NullOr(Schema.Array(SignalPlayer))
})

const PAGE = 100

/** The same kind, subject and players make the same signal, whatever the order the players come in. */
export const signalKey = (signal: Pick<SignalInput, "kind" | "subject" | "userIds">) =>
  `${signal.kind}|${signal.subject}|${[...new Set(signal.userIds)].sort().join(",")}`

/**
 * Integrity signals (migration 0120): what the site noticed for the operator
 * to review — reused payment references, payout accounts, devices and
 * addresses shared between players. `record` writes a signal once (a second
 * sighting adds nothing) in the caller's transaction when there is one, so a
 * signal about something refused is recorded outside the refused write.
 * `list` is what the operator's desk and `npm run admin -- signals` read.
 */
export class Signals extends Context.Service<Signals, {
  record(signal: SignalInput): Effect.Effect<void, SqlError.SqlError>
  list(filter?: SignalFilter): Effect.Effect<SignalPage, SqlError.SqlError>
}>()("khel/Signals") {
  static readonly layer = Layer.effect(
    Signals,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const record = Effect.fn("Signals.record")(function*(signal: SignalInput) {
        const players = [...new Set(signal.userIds)]
        yield* sql.withTransaction(Effect.gen(function*() {
          // Cast, not decoded: ids only, used as keys.
          const [created] = yield* sql<{ id: string }>`
            INSERT INTO integrity_signals (kind, subject, detail, context, key)
            VALUES (${signal.kind}, ${signal.subject}, ${signal.detail}, ${JSON.stringify(signal.context ?? {})}::jsonb, ${signalKey(signal)})
            ON CONFLICT (key) DO NOTHING
            RETURNING id
          `
          if (!created) return
          for (const userId of players) {
            yield* sql`INSERT INTO integrity_signal_players (signal_id, user_id) VALUES (${created.id}, ${userId})`
          }
        }))
      })

      const list = Effect.fn("Signals.list")(function*(filter: SignalFilter = {}) {
        const limit = Math.max(1, Math.min(filter.limit ?? PAGE, PAGE))
        const rows = yield* sql`
          SELECT s.id, s.kind, s.subject, s.detail, s.context, s.created_at,
                 (SELECT json_agg(json_build_object('id', u.id, 'username', u.username, 'name', u.name) ORDER BY u.username)
                    FROM integrity_signal_players p JOIN users u ON u.id = p.user_id
                   WHERE p.signal_id = s.id) AS players
            FROM integrity_signals s
           WHERE (${filter.kind ?? null}::text IS NULL OR s.kind = ${filter.kind ?? null})
             AND (${filter.userId ?? null}::text IS NULL
                  OR EXISTS (SELECT 1 FROM integrity_signal_players p WHERE p.signal_id = s.id AND p.user_id = ${filter.userId ?? null}))
             AND (${filter.before ?? null}::text IS NULL
                  OR (s.created_at, s.id) < (SELECT b.created_at, b.id FROM integrity_signals b WHERE b.id = ${filter.before ?? null}))
           ORDER BY s.created_at DESC, s.id DESC
           LIMIT ${limit + 1}
        `.pipe(decodeRows(SignalRow))
        const signals = rows.slice(0, limit).map((row): IntegritySignal => ({
          _id: row.id,
          kind: row.kind,
          players: row.players ?? [],
          subject: row.subject,
          detail: row.detail,
          context: row.context,
          createdAt: row.createdAt.toISOString()
        }))
        return { signals, next: rows.length > limit ? signals.at(-1)!._id : null } satisfies SignalPage
      })

      return Signals.of({ record, list })
    })
  )
}
