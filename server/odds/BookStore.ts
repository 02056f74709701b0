import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError, type Statement } from "effect/sql"
import { MarketBook, PriceLevel, Score } from "../../src/schema/betting.ts"
import { decodeFirst, decodeRows } from "../db/rows.ts"
import type { FeedChanges, PricedMarket } from "./Books.ts"
import type { MarketModel } from "./prices.ts"
import type { StoredMarkets } from "./Simulator.ts"

/**
 * The connection the odds leader holds its advisory lock on. Every write of
 * the books goes through it: when it is gone, so is the lock, and so is any
 * write an old leader could still try (the fencing).
 */
export interface LeaderConnection {
  readonly query: (text: string, values?: ReadonlyArray<unknown>) => Promise<{ readonly rows: ReadonlyArray<Record<string, unknown>> }>
}

/** What the leader writes after each step: the books and scores that changed, with the model behind each book. */
export interface StoreWrite extends FeedChanges {
  readonly models: ReadonlyMap<string, MarketModel>
}

const Levels = Schema.Array(PriceLevel)
const Model = Schema.Struct({
  probs: Schema.Array(Schema.Finite),
  line: Schema.Finite,
  manual: Schema.Boolean,
  pins: Schema.optional(Schema.Record(Schema.String, Schema.Struct({ back: Schema.optional(Levels), lay: Schema.optional(Levels) })))
})

/** A stored change, with how long ago (on the database's clock) the leader wrote it. */
const Change = Schema.Union([
  Schema.Struct({ kind: Schema.Literal("book"), sort: Schema.Int, data: MarketBook, seq: Schema.NumberFromString, ageMs: Schema.Number }),
  Schema.Struct({ kind: Schema.Literal("score"), sort: Schema.Int, data: Score, seq: Schema.NumberFromString, ageMs: Schema.Number })
])

const Carried = Schema.Struct({ marketId: Schema.String, book: MarketBook, model: Model })

/** A leadership of the odds: who, since when, and when it first and last wrote books (database clock). */
export const Leadership = Schema.Struct({
  epoch: Schema.NumberFromString,
  holder: Schema.String,
  since: Schema.Date,
  firstWriteAt: Schema.NullOr(Schema.Date),
  lastWriteAt: Schema.NullOr(Schema.Date)
})
export type Leadership = typeof Leadership.Type

/** Closed books and finished events' scores are kept this long for servers catching up, then removed. */
const KEEP_CLOSED = "1 hour"

const failure = (error: unknown) => new Error(`odds store: ${error instanceof Error ? error.message : String(error)}`)

/**
 * The books every server serves, in PostgreSQL: the latest book and score
 * the odds leader published, each with a sequence number. The leader writes
 * them (through its lock's connection); every server reads what is newer
 * than what it has, and bet placement reads the book it checks a price
 * against here, so every server checks against the same book.
 */
export class BookStore extends Context.Service<BookStore, {
  /** Changes after `seq`, in order, and the newest sequence number seen. */
  since(seq: number): Effect.Effect<{ readonly changes: FeedChanges; readonly seq: number }, SqlError.SqlError>
  /** The book of a market now (its feed id), as the leader last published it. */
  book(marketId: string): Effect.Effect<MarketBook | undefined, SqlError.SqlError>
  /** The same as a column of another statement (JSON, null when there is none). */
  bookColumn(marketId: string): Statement.Fragment
  /** The books and models a new leader carries on from. */
  carried(marketIds: ReadonlyArray<string>): Effect.Effect<StoredMarkets, SqlError.SqlError>
  /** Recorded leaderships, newest first. */
  leaderships(limit: number): Effect.Effect<ReadonlyArray<Leadership>, SqlError.SqlError>
  /** Takes a new leadership on the leader's connection (after its lock is held); its epoch and when it began. */
  takeOver(connection: LeaderConnection, holder: string): Effect.Effect<{ readonly epoch: number; readonly since: Date }, Error>
  /** Writes changed books and scores on the leader's connection, in one statement; the newest sequence number. */
  write(connection: LeaderConnection, epoch: number, changes: StoreWrite): Effect.Effect<number, Error>
  /** Removes books closed and scores of events over a while ago. */
  prune(connection: LeaderConnection): Effect.Effect<void, Error>
}>()("khel/BookStore") {
  static readonly layer = Layer.effect(
    BookStore,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const since = (seq: number) =>
        sql`
          SELECT 'book' AS kind, sort, book AS data, seq::text AS seq, extract(epoch FROM clock_timestamp() - updated_at)::float8 * 1000 AS age_ms
            FROM odds_books WHERE seq > ${seq}
          UNION ALL
          SELECT 'score' AS kind, 0 AS sort, score AS data, seq::text AS seq, extract(epoch FROM clock_timestamp() - updated_at)::float8 * 1000 AS age_ms
            FROM odds_scores WHERE seq > ${seq}
          ORDER BY seq
        `.pipe(
          decodeRows(Change),
          Effect.map((rows) => {
            const markets: Array<PricedMarket> = []
            const scores: Array<Score> = []
            let newest = seq
            const now = Date.now()
            for (const row of rows) {
              if (row.kind === "book") markets.push({ book: row.data, sort: row.sort, writtenAt: now - row.ageMs })
              else scores.push(row.data)
              newest = Math.max(newest, row.seq)
            }
            return { changes: { markets, scores }, seq: newest }
          }),
          Effect.withSpan("BookStore.since")
        )

      const bookColumn = (marketId: string) => sql`(SELECT book FROM odds_books WHERE market_id = ${marketId})`

      const book = (marketId: string) =>
        sql`SELECT ${bookColumn(marketId)} AS book`.pipe(
          decodeFirst(Schema.Struct({ book: Schema.NullOr(MarketBook) })),
          Effect.map((row) => row?.book ?? undefined)
        )

      const carried = (marketIds: ReadonlyArray<string>) =>
        marketIds.length === 0 ? Effect.succeed(new Map()) : sql`
          SELECT market_id, book, model FROM odds_books WHERE market_id IN ${sql.in(marketIds)}
        `.pipe(decodeRows(Carried), Effect.map((rows) => new Map(rows.map((row) => [row.marketId, { book: row.book, model: row.model }]))))

      const leaderships = (limit: number) =>
        sql`
          SELECT epoch::text AS epoch, holder, since, first_write_at, last_write_at FROM odds_leaders ORDER BY epoch DESC LIMIT ${limit}
        `.pipe(decodeRows(Leadership))

      const takeOver = (connection: LeaderConnection, holder: string) =>
        Effect.tryPromise({
          try: () => connection.query(
            `INSERT INTO odds_leaders (epoch, holder, since)
             SELECT coalesce(max(epoch), 0) + 1, $1, clock_timestamp() FROM odds_leaders
             RETURNING epoch::text AS epoch, since`,
            [holder]
          ),
          catch: failure
        }).pipe(Effect.map(({ rows }) => ({ epoch: Number(rows[0]!.epoch), since: rows[0]!.since as Date })))

      const write = (connection: LeaderConnection, epoch: number, changes: StoreWrite) => {
        const books = changes.markets.map((m) => ({
          market_id: m.book.marketId,
          event_id: m.book.eventId,
          sort: m.sort,
          book: m.book,
          model: changes.models.get(m.book.marketId) ?? null
        }))
        const scores = changes.scores.map((score) => ({ event_id: score.eventId, score }))
        // One statement: books, scores and the leadership's last write commit together, each row numbered in order.
        return Effect.tryPromise({
          try: () => connection.query(
            `WITH books AS (
               INSERT INTO odds_books AS o (market_id, event_id, sort, book, model, seq, updated_at)
               SELECT x.market_id, x.event_id, x.sort, x.book,
                      coalesce(x.model, '{"probs":[],"line":0,"manual":false,"unknown":true}'::jsonb), nextval('odds_seq'), clock_timestamp()
                 FROM jsonb_to_recordset($1::jsonb) AS x (market_id text, event_id text, sort integer, book jsonb, model jsonb)
               ON CONFLICT (market_id) DO UPDATE
                  SET sort = EXCLUDED.sort, book = EXCLUDED.book, seq = EXCLUDED.seq, updated_at = EXCLUDED.updated_at,
                      -- A book without its model (a market the simulator has let go of) keeps the model it had.
                      model = CASE WHEN EXCLUDED.model ? 'unknown' THEN o.model ELSE EXCLUDED.model END
               RETURNING seq
             ),
             scores AS (
               INSERT INTO odds_scores (event_id, score, seq, updated_at)
               SELECT x.event_id, x.score, nextval('odds_seq'), clock_timestamp()
                 FROM jsonb_to_recordset($2::jsonb) AS x (event_id text, score jsonb)
               ON CONFLICT (event_id) DO UPDATE SET score = EXCLUDED.score, seq = EXCLUDED.seq, updated_at = EXCLUDED.updated_at
               RETURNING seq
             ),
             leader AS (
               UPDATE odds_leaders SET first_write_at = coalesce(first_write_at, clock_timestamp()), last_write_at = clock_timestamp()
                WHERE epoch = $3
               RETURNING epoch
             )
             SELECT greatest((SELECT max(seq) FROM books), (SELECT max(seq) FROM scores))::text AS seq, (SELECT count(*) FROM leader) AS leading`,
            [JSON.stringify(books), JSON.stringify(scores), epoch]
          ),
          catch: failure
        }).pipe(Effect.map(({ rows }) => Number(rows[0]?.seq ?? 0)), Effect.withSpan("BookStore.write", { attributes: { books: books.length, scores: scores.length } }))
      }

      const prune = (connection: LeaderConnection) =>
        Effect.tryPromise({
          try: async () => {
            await connection.query(`DELETE FROM odds_books WHERE book->>'status' = 'CLOSED' AND updated_at < now() - interval '${KEEP_CLOSED}'`)
            await connection.query(
              `DELETE FROM odds_scores s USING events e
                WHERE e.id = s.event_id AND e.status NOT IN ('scheduled', 'live') AND s.updated_at < now() - interval '${KEEP_CLOSED}'`
            )
          },
          catch: failure
        })

      return BookStore.of({ since, book, bookColumn, carried, leaderships, takeOver, write, prune })
    })
  )
}
