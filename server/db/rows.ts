import { Effect, Schema } from "effect"

/**
 * One decoder per row schema: `decodeRows(Row)` is often written inside a handler, and building the
 * decoder of a new `Schema.Array` compiles it again each time (a measurable share of a bet's CPU).
 */
const decoders = new WeakMap<Schema.Decoder<unknown>, (rows: unknown) => Effect.Effect<ReadonlyArray<unknown>, Schema.SchemaError>>()
const rowsDecoder = <A>(schema: Schema.Decoder<A>) => {
  let decode = decoders.get(schema)
  if (!decode) {
    decode = Schema.decodeUnknownEffect(Schema.Array(schema)) as (rows: unknown) => Effect.Effect<ReadonlyArray<unknown>, Schema.SchemaError>
    decoders.set(schema, decode)
  }
  return decode as (rows: unknown) => Effect.Effect<ReadonlyArray<A>, Schema.SchemaError>
}

/**
 * Decodes the rows of a query with a schema: `sql\`…\`.pipe(decodeRows(Row))`.
 * A row that does not match is a defect (logged, answered as a generic 500):
 * the database holds something the code does not expect, and no money moves
 * and nothing reaches a player on a guess.
 */
export const decodeRows = <A>(schema: Schema.Decoder<A>) => {
  const decode = rowsDecoder(schema)
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
/** A time column as the wire's ISO text, or null when the row has none. */
export const iso = (value: Date | null | undefined) => (value ? value.toISOString() : null)

export const Paise = Schema.BigInt

/** NUMERIC arrives as text (no precision lost); odds and sizes are read through it. */
export const NumericText = Schema.String.check(Schema.isPattern(/^-?\d+(\.\d+)?$/))
