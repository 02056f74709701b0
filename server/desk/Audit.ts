import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { parseInstant } from "../../src/domain/ranges.ts"
import type { AuditEntry, AuditQuery } from "../../src/schema/desk/audit.ts"
import { DEFAULT_PAGE } from "../../src/schema/desk/common.ts"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import { Role } from "../../src/schema/user.ts"
import { decodeRows } from "../db/rows.ts"
import { Realtime } from "../realtime/Realtime.ts"

/** Who acted: a staff member on the desk (with their role then and their address), the command line, or the system. */
export type Actor =
  | { readonly kind: "staff"; readonly id: string; readonly username: string; readonly role: number; readonly ip: string | undefined }
  | { readonly kind: "cli" }
  | { readonly kind: "system" }

export const CLI: Actor = { kind: "cli" }
export const SYSTEM: Actor = { kind: "system" }

/** What `decided_by`, `settled_by` and the like store for an actor: the user id, or "cli" / "system". */
export const actorId = (actor: Actor) => (actor.kind === "staff" ? actor.id : actor.kind)

/** An action to record: what, on which record, the record before and after (as the desk shows it). */
export interface AuditLine {
  readonly action: string
  readonly subject?: { readonly kind: string; readonly id: string }
  readonly before?: unknown
  readonly after?: unknown
}

const EntryRow = Schema.Struct({
  id: Schema.String,
  at: Schema.Date,
  actor: Schema.String,
  actorRole: Schema.NullOr(Role),
  ip: Schema.NullOr(Schema.String),
  action: Schema.String,
  subjectKind: Schema.NullOr(Schema.String),
  subjectId: Schema.NullOr(Schema.String),
  before: Schema.Unknown,
  after: Schema.Unknown
})
type EntryRow = typeof EntryRow.Type

const entryView = (row: EntryRow): AuditEntry => ({ ...row, at: row.at.toISOString() })

/** The most rows one CSV export carries. */
export const EXPORT_LIMIT = 100_000

const CSV_COLUMNS = ["id", "at", "actor", "actorRole", "ip", "action", "subjectKind", "subjectId", "before", "after"] as const

/**
 * A CSV cell: quoted, quotes doubled, and a value a spreadsheet would run as a
 * formula (=, +, -, @) made plain text with a leading apostrophe.
 */
const csvCell = (value: unknown) => {
  const text = value === null || value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value)
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text
  return `"${safe.replace(/"/g, '""')}"`
}

export const auditCsv = (entries: ReadonlyArray<AuditEntry>) =>
  [CSV_COLUMNS.join(","), ...entries.map((entry) => CSV_COLUMNS.map((column) => csvCell(entry[column])).join(","))].join("\r\n") + "\r\n"

/**
 * The staff audit: every staff action, written in the same database
 * transaction as the change it describes (the caller's), so an action and its
 * line commit together or not at all; every open desk hears of it once
 * committed (`audit`). The table refuses UPDATE, DELETE and TRUNCATE
 * (migration 0130).
 */
export class Audit extends Context.Service<Audit, {
  record(actor: Actor, line: AuditLine): Effect.Effect<void, SqlError.SqlError>
  /**
   * Runs a write and records it in one transaction: the record `before` it
   * (when given, read first) and what the write answered as `after`.
   */
  around<A, E, R, B = undefined, E2 = never, R2 = never>(
    actor: Actor,
    line: Omit<AuditLine, "before" | "after">,
    write: Effect.Effect<A, E, R>,
    before?: Effect.Effect<B, E2, R2>
  ): Effect.Effect<A, E | E2 | SqlError.SqlError, R | R2>
  /** Newest first, a page at a time (the cursor is the last id seen). */
  search(query: AuditQuery): Effect.Effect<{ readonly items: ReadonlyArray<AuditEntry>; readonly next: string | null; readonly total: number }, ApiError | SqlError.SqlError>
  /** Every entry the search matches, newest first (at most EXPORT_LIMIT), as CSV. */
  csv(query: AuditQuery): Effect.Effect<string, ApiError | SqlError.SqlError>
}>()("khel/Audit") {
  static readonly layer = Layer.effect(
    Audit,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const realtime = yield* Realtime

      const record = Effect.fn("Audit.record")(function*(actor: Actor, line: AuditLine) {
        const staff = actor.kind === "staff" ? actor : undefined
        const [written] = yield* sql`
          INSERT INTO staff_audit (actor_id, actor, actor_role, ip, action, subject_kind, subject_id, before, after)
          VALUES (${staff?.id ?? null}, ${staff?.username ?? actor.kind}, ${staff?.role ?? null}, ${staff?.ip ?? null}, ${line.action},
                  ${line.subject?.kind ?? null}, ${line.subject?.id ?? null},
                  ${line.before === undefined ? null : JSON.stringify(line.before)}::jsonb, ${line.after === undefined ? null : JSON.stringify(line.after)}::jsonb)
          RETURNING id::text
        `.pipe(decodeRows(Schema.Struct({ id: Schema.String })))
        // Open audit lists read again once the line (and the change it describes) is committed.
        yield* sql.afterCommit(realtime.notifyDesk("audit", written!.id))
      })

      const filters = (query: AuditQuery) =>
        Effect.gen(function*() {
          const from = query.start_date ? parseInstant(query.start_date) : new Date(0)
          const to = query.end_date ? parseInstant(query.end_date, true) : new Date(8.64e15)
          if (!from || !to) return yield* refuse("InvalidInput", "Dates are YYYY-MM-DD (India time) or ISO instants.")
          const q = query.q?.trim() ? `%${query.q.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null
          return sql`
            at >= ${from} AND at <= ${to}
            AND (${query.actor?.trim().toLowerCase() || null}::text IS NULL OR actor = ${query.actor?.trim().toLowerCase() || null})
            AND (${query.action?.trim() || null}::text IS NULL OR action LIKE ${`${query.action?.trim() ?? ""}%`})
            AND (${query.subject?.trim() || null}::text IS NULL OR subject_id = ${query.subject?.trim() || null})
            AND (${q}::text IS NULL OR action ILIKE ${q} OR actor ILIKE ${q} OR subject_id ILIKE ${q} OR before::text ILIKE ${q} OR after::text ILIKE ${q})
          `
        })

      const cursorOf = (after: string | undefined) =>
        after === undefined ? Effect.succeed(null) : /^\d{1,18}$/.test(after) ? Effect.succeed(after) : refuse("InvalidInput", "That page does not exist: start the search again.")

      const search = Effect.fn("Audit.search")(function*(query: AuditQuery) {
        const where = yield* filters(query)
        const after = yield* cursorOf(query.after)
        const limit = query.limit ?? DEFAULT_PAGE
        const rows = yield* sql`
          SELECT id::text, at, actor, actor_role, ip, action, subject_kind, subject_id, before, after
            FROM staff_audit
           WHERE ${where} AND (${after}::bigint IS NULL OR id < ${after}::bigint)
           ORDER BY staff_audit.id DESC
           LIMIT ${limit + 1}
        `.pipe(decodeRows(EntryRow))
        const [counted] = yield* sql`SELECT count(*)::int AS total FROM staff_audit WHERE ${where}`.pipe(decodeRows(Schema.Struct({ total: Schema.Int })))
        const page = rows.slice(0, limit)
        return { items: page.map(entryView), next: rows.length > limit ? page[page.length - 1]!.id : null, total: counted?.total ?? 0 }
      })

      const csv = Effect.fn("Audit.csv")(function*(query: AuditQuery) {
        const where = yield* filters(query)
        const rows = yield* sql`
          SELECT id::text, at, actor, actor_role, ip, action, subject_kind, subject_id, before, after
            FROM staff_audit WHERE ${where} ORDER BY staff_audit.id DESC LIMIT ${EXPORT_LIMIT}
        `.pipe(decodeRows(EntryRow))
        return auditCsv(rows.map(entryView))
      })

      const around = <A, E, R, B, E2, R2>(actor: Actor, line: Omit<AuditLine, "before" | "after">, write: Effect.Effect<A, E, R>, before?: Effect.Effect<B, E2, R2>) =>
        sql.withTransaction(Effect.gen(function*() {
          const was = before ? yield* before : undefined
          const result = yield* write
          yield* record(actor, { ...line, before: was, after: result })
          return result
        }))

      return Audit.of({ record, around, search, csv })
    })
  )
}
