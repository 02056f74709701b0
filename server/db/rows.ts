import { Effect, Schema } from "effect"

/**
 * Decodes the rows of a query with a schema: `sql\`…\`.pipe(decodeRows(Row))`.
 * A row that does not match is a defect (logged, answered as a generic 500):
 * the database holds something the code does not expect, and no money moves
 * and nothing reaches a player on a guess.
 */
export const decodeRows = <A>(schema: Schema.Decoder<A>) => {
  const decode = Schema.decodeUnknownEffect(Schema.Array(schema))
  return <E, R>(query: Effect.Effect<ReadonlyArray<unknown>, E, R>): Effect.Effect<ReadonlyArray<A>, E, R> =>
    Effect.flatMap(query, (rows) => Effect.orDie(decode(rows)))
}

/** The first row decoded, or undefined when there is none. */
export const decodeFirst = <A>(schema: Schema.Decoder<A>) => {
  const rows = decodeRows(schema)
  return <E, R>(query: Effect.Effect<ReadonlyArray<unknown>, E, R>): Effect.Effect<A | undefined, E, R> =>
    Effect.map(rows(query), (decoded) => decoded[0])
}

/** Money columns: PostgreSQL's BIGINT arrives as a bigint. */
export const Paise = Schema.BigInt

/** NUMERIC arrives as text (no precision lost); odds and sizes are read through it. */
export const NumericText = Schema.String.check(Schema.isPattern(/^-?\d+(\.\d+)?$/))
