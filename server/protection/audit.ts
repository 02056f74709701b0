import { Effect } from "effect"
import type { SqlClient } from "effect/sql"

/** Who changed something: a user id (the player or an operator), "cli" or "system", and from which address. */
export interface Actor {
  readonly id: string
  readonly ip?: string | undefined
}

export const SYSTEM: Actor = { id: "system" }
export const CLI: Actor = { id: "cli" }

/**
 * One line of the protection audit, written in the same transaction as the
 * change it describes. The table refuses UPDATE, DELETE and TRUNCATE.
 */
export const audit = (
  sql: SqlClient.SqlClient,
  entry: { readonly userId: string | null; readonly actor: Actor; readonly action: string; readonly detail: unknown; readonly at: Date }
) =>
  Effect.asVoid(sql`
    INSERT INTO protection_audit (user_id, actor, action, detail, ip, at)
    VALUES (${entry.userId}, ${entry.actor.id}, ${entry.action}, ${JSON.stringify(entry.detail)}::jsonb, ${entry.actor.ip ?? null}, ${entry.at})
  `)
