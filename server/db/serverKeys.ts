import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { randomBytes } from "node:crypto"
import { decodeFirst } from "./rows.ts"

/**
 * A secret of this database's (table `server_keys`), made on first use: every server sharing the database signs and
 * checks with the same one (the visitor cookie, cash-out quotes).
 */
export const serverKey = (name: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`INSERT INTO server_keys (name, secret) VALUES (${name}, ${randomBytes(32).toString("hex")}) ON CONFLICT (name) DO NOTHING`
    const row = yield* sql`SELECT secret FROM server_keys WHERE name = ${name}`.pipe(decodeFirst(Schema.Struct({ secret: Schema.String })))
    return row!.secret
  })
