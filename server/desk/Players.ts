import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { noteProblem, statusProblem } from "../../src/domain/deskPlayers.ts"
import { toRupees } from "../../src/domain/money.ts"
import { DEFAULT_PAGE } from "../../src/schema/desk/common.ts"
import type { DeskBet, DeskPlayer, PlayerDetail, PlayerNote, PlayerQuery, PlayerStatusPayload } from "../../src/schema/desk/players.ts"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import { Role, Roles } from "../../src/schema/user.ts"
import { decodeRows, NumericText, Paise } from "../db/rows.ts"
import { Sessions } from "../identity/Sessions.ts"
import { Ledger } from "../ledger/Ledger.ts"
import { Payments } from "../payments/Payments.ts"
import { Protection } from "../protection/Protection.ts"
import { Realtime } from "../realtime/Realtime.ts"
import { Statements } from "../statements/Statements.ts"
import { type Actor, Audit } from "./Audit.ts"

const PlayerRow = Schema.Struct({
  id: Schema.String,
  username: Schema.String,
  name: Schema.String,
  mobileNo: Schema.String,
  role: Role,
  status: Schema.Literals(["pending", "active", "suspended"]),
  createdAt: Schema.Date,
  main: Paise
})
type PlayerRow = typeof PlayerRow.Type

const playerView = (row: PlayerRow): DeskPlayer => ({ ...row, createdAt: row.createdAt.toISOString(), main: toRupees(row.main) })

const BetRow = Schema.Struct({
  id: Schema.String,
  event: Schema.String,
  market: Schema.String,
  selection: Schema.String,
  side: Schema.Literals(["back", "lay"]),
  odds: NumericText,
  stake: Paise,
  unmatched: Paise,
  cancelled: Paise,
  liability: Paise,
  status: Schema.Literals(["open", "won", "lost", "void", "cancelled"]),
  profitLoss: Schema.NullOr(Paise),
  createdAt: Schema.Date
})

const betView = (row: typeof BetRow.Type): DeskBet => ({
  ...row,
  odds: Number(row.odds),
  stake: toRupees(row.stake),
  unmatched: toRupees(row.unmatched),
  cancelled: toRupees(row.cancelled),
  liability: toRupees(row.liability),
  profitLoss: row.profitLoss === null ? null : toRupees(row.profitLoss),
  createdAt: row.createdAt.toISOString()
})

const SessionRow = Schema.Struct({ id: Schema.String, createdAt: Schema.Date, lastSeenAt: Schema.Date, ip: Schema.NullOr(Schema.String), userAgent: Schema.NullOr(Schema.String) })
const NoteRow = Schema.Struct({ id: Schema.String, author: Schema.String, body: Schema.String, at: Schema.Date })
const noteView = (row: typeof NoteRow.Type): PlayerNote => ({ ...row, at: row.at.toISOString() })

/** The roles the players screen lists: the site's players (staff and agents have screens of their own). */
const PLAYER_ROLES = [Roles.PLAYER, Roles.CREDIT_PLAYER]

/** What a page of the player's page lists of each kind. */
const RECENT = 50
const STATEMENT_DAYS = 30

/**
 * Players as the desk sees them and what staff do to them: search, a
 * player's page, notes, suspension and ending their sessions (manual
 * adjustments are Adjustments'). Every write is audited in its
 * own transaction and every open desk hears of it (`players`).
 */
export class Players extends Context.Service<Players, {
  search(query: PlayerQuery): Effect.Effect<{ readonly items: ReadonlyArray<DeskPlayer>; readonly next: string | null; readonly total: number }, ApiError | SqlError.SqlError>
  detail(id: string): Effect.Effect<PlayerDetail, ApiError | SqlError.SqlError>
  /** The player as the search lists them, or 404. */
  player(id: string): Effect.Effect<DeskPlayer, ApiError | SqlError.SqlError>
  note(actor: Actor & { readonly kind: "staff" }, id: string, body: string): Effect.Effect<PlayerNote, ApiError | SqlError.SqlError>
  setStatus(actor: Actor, id: string, payload: PlayerStatusPayload): Effect.Effect<DeskPlayer, ApiError | SqlError.SqlError>
  endSessions(actor: Actor, id: string): Effect.Effect<number, ApiError | SqlError.SqlError>
}>()("khel/Players") {
  static readonly layer = Layer.effect(
    Players,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const audit = yield* Audit
      const ledger = yield* Ledger
      const payments = yield* Payments
      const statements = yield* Statements
      const protection = yield* Protection
      const sessions = yield* Sessions
      const realtime = yield* Realtime

      const select = sql`
        SELECT u.id, u.username, u.name, u.mobile_no, u.role, u.status, u.created_at, coalesce(a.balance, 0) AS main
          FROM users u LEFT JOIN ledger_accounts a ON a.user_id = u.id AND a.kind = 'main'
      `
      const isPlayer = sql`u.role IN ${sql.in(PLAYER_ROLES)}`

      /** The player, locked when `lock` (a write judges it), or 404. */
      const find = (id: string, lock = false) =>
        Effect.gen(function*() {
          if (lock) yield* sql`SELECT id FROM users WHERE id = ${id} FOR UPDATE`
          const [row] = yield* sql`${select} WHERE u.id = ${id} AND ${isPlayer}`.pipe(decodeRows(PlayerRow))
          return row ? row : yield* refuse("NotFound", "There is no such player.")
        })

      const search = Effect.fn("Players.search")(function*(query: PlayerQuery) {
        const after = query.after
        if (after !== undefined && !/^[\w.-]{1,64}$/.test(after)) return yield* refuse("InvalidInput", "That page does not exist: search again.")
        const text = query.q?.trim() ?? ""
        const digits = text.replace(/\D/g, "")
        const clauses = [isPlayer]
        if (text !== "") {
          clauses.push(sql`(u.id = ${text} OR u.username LIKE ${`${text.toLowerCase().replace(/[\\%_]/g, "\\$&")}%`}
            OR lower(u.name) LIKE ${`%${text.toLowerCase().replace(/[\\%_]/g, "\\$&")}%`}
            OR (${digits.length >= 6} AND u.mobile_no LIKE ${`%${digits}`}))`)
        }
        if (query.status) clauses.push(sql`u.status = ${query.status}`)
        const limit = query.limit ?? DEFAULT_PAGE
        const rows = yield* sql`${select} WHERE ${sql.and([...clauses, ...(after ? [sql`u.username > ${after}`] : [])])} ORDER BY u.username LIMIT ${limit + 1}`.pipe(decodeRows(PlayerRow))
        const [counted] = yield* sql`SELECT count(*)::int AS total FROM users u WHERE ${sql.and(clauses)}`.pipe(decodeRows(Schema.Struct({ total: Schema.Int })))
        const shown = rows.slice(0, limit)
        return { items: shown.map(playerView), next: rows.length > limit ? shown[shown.length - 1]!.username : null, total: counted?.total ?? 0 }
      })

      const bets = (id: string, open: boolean) =>
        sql`
          SELECT b.id, e.name AS event, m.name AS market, b.selection_name AS selection, b.side, b.odds::text AS odds, b.stake, b.unmatched, b.cancelled, b.liability,
                 b.status, b.profit_loss, b.created_at
            FROM bets b JOIN markets m ON m.id = b.market_id JOIN events e ON e.id = b.event_id
           WHERE b.user_id = ${id} AND ${open ? sql`b.status = 'open'` : sql`b.status <> 'open'`}
           ORDER BY b.created_at DESC, b.id LIMIT ${RECENT}
        `.pipe(decodeRows(BetRow), Effect.map((rows) => rows.map(betView)))

      const detail = Effect.fn("Players.detail")(function*(id: string) {
        const row = yield* find(id)
        const to = new Date()
        const from = new Date(to.getTime() - STATEMENT_DAYS * 86_400_000)
        const all = { from: new Date(0), to, userId: id }
        const [balances, statement, openBets, settledBets, deposits, withdrawals, accounts, state, live, notes] = yield* Effect.all([
          ledger.balances(id),
          statements.statement(id, { view: "account", from, to, includeBonus: false }),
          bets(id, true),
          bets(id, false),
          payments.deposits(all),
          payments.withdrawals(all),
          payments.accounts(id),
          protection.state(id),
          sql`
            SELECT id, created_at, last_seen_at, ip, user_agent FROM sessions
             WHERE user_id = ${id} AND scope = 'player' AND revoked_at IS NULL AND expires_at > now() ORDER BY last_seen_at DESC
          `.pipe(decodeRows(SessionRow)),
          sql`SELECT id::text, author, body, at FROM player_notes WHERE user_id = ${id} ORDER BY player_notes.id DESC LIMIT ${RECENT}`.pipe(decodeRows(NoteRow))
        ])
        return {
          player: playerView(row),
          balances: { main: toRupees(balances.main), bonus: toRupees(balances.bonus), exposure: toRupees(balances.exposure + balances.bonusExposure), withdrawalHold: toRupees(balances.withdrawalHold) },
          statement: statement.rows.slice(0, RECENT),
          openBets,
          settledBets,
          deposits: deposits.slice(0, RECENT),
          withdrawals: withdrawals.slice(0, RECENT),
          accounts,
          protection: state,
          sessions: live.map((s) => ({ ...s, createdAt: s.createdAt.toISOString(), lastSeenAt: s.lastSeenAt.toISOString() })),
          notes: notes.map(noteView)
        }
      })

      const changed = (id: string) => sql.afterCommit(realtime.notifyDesk("players", id))

      const note = Effect.fn("Players.note")(function*(actor: Actor & { readonly kind: "staff" }, id: string, body: string) {
        const problem = noteProblem(body)
        if (problem) return yield* refuse("InvalidInput", problem)
        return yield* sql.withTransaction(Effect.gen(function*() {
          yield* find(id)
          const [row] = yield* sql`
            INSERT INTO player_notes (user_id, author_id, author, body) VALUES (${id}, ${actor.id}, ${actor.username}, ${body.trim()})
            RETURNING id::text, author, body, at
          `.pipe(decodeRows(NoteRow))
          const added = noteView(row!)
          yield* audit.record(actor, { action: "player.note", subject: { kind: "player", id }, after: added })
          yield* changed(id)
          return added
        }))
      })

      const setStatus = Effect.fn("Players.setStatus")(function*(actor: Actor, id: string, payload: PlayerStatusPayload) {
        const problem = statusProblem(payload.reason)
        if (problem) return yield* refuse("InvalidInput", problem)
        return yield* sql.withTransaction(Effect.gen(function*() {
          const before = yield* find(id, true)
          if (before.status === "pending") return yield* refuse("Conflict", "This player has not finished signing up.")
          if (before.status === payload.status) return yield* refuse("Conflict", payload.status === "suspended" ? "This player is already suspended." : "This player is already active.")
          yield* sql`UPDATE users SET status = ${payload.status} WHERE id = ${id}`
          // A suspension takes effect at once: the player's sessions end (their open tabs are signed out).
          if (payload.status === "suspended") yield* sql.afterCommit(realtime.endSessions(yield* sessions.revokeAll(id)))
          const after = playerView(yield* find(id))
          yield* audit.record(actor, {
            action: payload.status === "suspended" ? "player.suspend" : "player.reactivate",
            subject: { kind: "player", id },
            before: { status: before.status },
            after: { status: after.status, reason: payload.reason.trim() }
          })
          yield* changed(id)
          return after
        }))
      })

      const endSessions = Effect.fn("Players.endSessions")(function*(actor: Actor, id: string) {
        return yield* sql.withTransaction(Effect.gen(function*() {
          yield* find(id)
          const ended = yield* sql`
            UPDATE sessions SET revoked_at = now() WHERE user_id = ${id} AND scope = 'player' AND revoked_at IS NULL RETURNING id
          `.pipe(decodeRows(Schema.Struct({ id: Schema.String })), Effect.map((rows) => rows.map((row) => row.id)))
          yield* sql.afterCommit(realtime.endSessions(ended))
          yield* audit.record(actor, { action: "player.end-sessions", subject: { kind: "player", id }, after: { ended: ended.length } })
          yield* changed(id)
          return ended.length
        }))
      })

      return Players.of({ search, detail, player: (id) => Effect.map(find(id), playerView), note, setStatus, endSessions })
    })
  )
}
