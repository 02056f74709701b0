import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { createHash, randomBytes } from "node:crypto"
import { DESK_IDLE_MINUTES, DESK_SESSION_HOURS } from "../../src/domain/staff.ts"
import { Role } from "../../src/schema/user.ts"
import { decodeRows } from "../db/rows.ts"

export const SESSION_DAYS = 30

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex")

const SessionRow = Schema.Struct({ sessionId: Schema.String, userId: Schema.String, role: Role, touch: Schema.Boolean })
/** A session that ended: its sockets are disconnected. */
const Ended = Schema.Struct({ id: Schema.String })

export interface SessionUser {
  readonly id: string
  readonly role: Role
  readonly sessionId: string
}

/**
 * A player's session (the site), or a staff member's on the desk (/admin):
 * each opens only its own side. A desk session ends 12 hours after sign-in or
 * after 30 minutes without a request.
 */
export type SessionScope = "player" | "desk"

const lifetime = (scope: SessionScope) => (scope === "desk" ? `${DESK_SESSION_HOURS} hours` : `${SESSION_DAYS} days`)
// A player's session is marked seen every 5 minutes; a desk session every minute, as it ends after 30 idle ones.
const touchAfter = (scope: SessionScope) => (scope === "desk" ? "1 minute" : "5 minutes")
const idleLimit = (scope: SessionScope) => (scope === "desk" ? `${DESK_IDLE_MINUTES} minutes` : `${SESSION_DAYS} days`)

/**
 * Bearer sessions: 32 random bytes, stored only as a SHA-256, valid 30 days,
 * revoked on logout and on any password change. Casino game sessions hang
 * off the session that launched them and end with it.
 */
export class Sessions extends Context.Service<Sessions, {
  create(userId: string, client: { ip?: string | undefined; userAgent?: string | undefined; device?: string | undefined }, scope?: SessionScope): Effect.Effect<string, SqlError.SqlError>
  /** The session of a token of that scope (a player's by default) that has not ended. */
  authenticate(token: string, scope?: SessionScope): Effect.Effect<SessionUser | undefined, SqlError.SqlError>
  /** Ends one session; the ids of the sessions that ended (none if it had ended already). */
  revoke(sessionId: string): Effect.Effect<ReadonlyArray<string>, SqlError.SqlError>
  /** Ends every session of a player; the ids of the sessions that ended. */
  revokeAll(userId: string): Effect.Effect<ReadonlyArray<string>, SqlError.SqlError>
}>()("khel/Sessions") {
  static readonly layer = Layer.effect(
    Sessions,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const create = Effect.fn("Sessions.create")(function*(userId: string, client: { ip?: string | undefined; userAgent?: string | undefined; device?: string | undefined }, scope: SessionScope = "player") {
        const token = randomBytes(32).toString("base64url")
        yield* sql`
          INSERT INTO sessions (user_id, token_hash, expires_at, ip, user_agent, scope, device)
          VALUES (${userId}, ${hashToken(token)}, now() + ${lifetime(scope)}::interval, ${client.ip ?? null}, ${client.userAgent?.slice(0, 300) ?? null}, ${scope},
                  ${client.device ?? null})
        `
        return token
      })

      const authenticate = Effect.fn("Sessions.authenticate")(function*(token: string, scope: SessionScope = "player") {
        if (!token || token.length > 200) return undefined
        const [row] = yield* sql`
          SELECT s.id AS session_id, u.id AS user_id, u.role, s.last_seen_at < now() - ${touchAfter(scope)}::interval AS touch
            FROM sessions s JOIN users u ON u.id = s.user_id
           WHERE s.token_hash = ${hashToken(token)} AND s.scope = ${scope} AND s.revoked_at IS NULL AND s.expires_at > now()
             AND s.last_seen_at > now() - ${idleLimit(scope)}::interval AND u.status = 'active'
        `.pipe(decodeRows(SessionRow))
        if (!row) return undefined
        if (row.touch) yield* sql`UPDATE sessions SET last_seen_at = now() WHERE id = ${row.sessionId}`
        return { id: row.userId, role: row.role, sessionId: row.sessionId }
      })

      // A game session launched from a session ends with it (casino_sessions.session_id): nothing more to revoke.
      const revoke = Effect.fn("Sessions.revoke")(function*(sessionId: string) {
        const rows = yield* sql`UPDATE sessions SET revoked_at = now() WHERE id = ${sessionId} AND revoked_at IS NULL RETURNING id`.pipe(decodeRows(Ended))
        return rows.map((row) => row.id)
      })

      const revokeAll = Effect.fn("Sessions.revokeAll")(function*(userId: string) {
        const rows = yield* sql`UPDATE sessions SET revoked_at = now() WHERE user_id = ${userId} AND revoked_at IS NULL RETURNING id`.pipe(decodeRows(Ended))
        return rows.map((row) => row.id)
      })

      return Sessions.of({ create, authenticate, revoke, revokeAll })
    })
  )
}
