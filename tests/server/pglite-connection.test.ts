import { PGlite } from "@electric-sql/pglite"
import * as PgProtocol from "@effect/sql-pg/PgProtocol"
import type { Duplex } from "node:stream"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { pgliteConnection } from "../../server/db/pgliteConnection.ts"

/**
 * The in-process connection to the embedded database, at the protocol's level: the client's bytes may arrive
 * split anywhere, and every whole message is answered in order. (Every other server test runs its queries through
 * it on PGlite.)
 */
let db: PGlite
beforeAll(async () => {
  db = await PGlite.create()
})
afterAll(async () => {
  await db.close()
})

const int32 = (value: number) => {
  const bytes = Buffer.alloc(4)
  bytes.writeInt32BE(value)
  return bytes
}
/** The start-up packet as the server's own client sends it. */
const startup = () => Buffer.from(PgProtocol.encodeStartupMessage({ user: "postgres", database: "postgres" }))
/** A simple-protocol query: one message, its rows answered as text. */
const simpleQuery = (text: string) => {
  const body = Buffer.from(`${text}\0`)
  return Buffer.concat([Buffer.from("Q"), int32(body.length + 4), body])
}

interface Message {
  readonly type: string
  readonly body: Buffer
}

/** Reads the server's messages as they come; `untilReady` takes them up to and including the next ReadyForQuery. */
const reader = (stream: Duplex) => {
  let buffer = Buffer.alloc(0)
  const messages: Array<Message> = []
  let wake = () => {}
  stream.on("data", (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk])
    while (buffer.length >= 5 && buffer.length >= 1 + buffer.readInt32BE(1)) {
      const length = 1 + buffer.readInt32BE(1)
      messages.push({ type: String.fromCharCode(buffer[0]!), body: buffer.subarray(5, length) })
      buffer = buffer.subarray(length)
    }
    wake()
  })
  const untilReady = async (): Promise<Array<Message>> => {
    const ready = messages.findIndex((m) => m.type === "Z")
    if (ready >= 0) return messages.splice(0, ready + 1)
    await new Promise<void>((resolve) => (wake = resolve))
    return untilReady()
  }
  return { untilReady }
}

/** The text of each DataRow's one column: the column count, then the column's length and text. */
const values = (messages: ReadonlyArray<Message>) => messages.filter((m) => m.type === "D").map((m) => m.body.subarray(6).toString())

/** Writes `bytes` in pieces cut at the given offsets, each on its own turn of the event loop. */
const writeInPieces = async (stream: Duplex, bytes: Buffer, cuts: ReadonlyArray<number>) => {
  let from = 0
  for (const cut of [...cuts, bytes.length]) {
    stream.write(bytes.subarray(from, cut))
    from = cut
    await new Promise((resolve) => setImmediate(resolve))
  }
}

describe("the in-process connection to PGlite", () => {
  it("answers a start-up and a query sent in pieces, cut inside the length and inside the text", async () => {
    const connection = pgliteConnection(db)
    const read = reader(connection)
    await writeInPieces(connection, startup(), [2, 9])
    const greeting = await read.untilReady()
    // AuthenticationOk first.
    expect(greeting[0]?.type).toBe("R")
    expect(greeting[0]!.body.readInt32BE(0)).toBe(0)

    await writeInPieces(connection, simpleQuery("SELECT 41 + 1 AS n"), [3, 12])
    expect(values(await read.untilReady())).toEqual(["42"])
    connection.end()
  })

  it("answers two queries that arrive in one piece, in order", async () => {
    const connection = pgliteConnection(db)
    const read = reader(connection)
    connection.write(startup())
    await read.untilReady()
    connection.write(Buffer.concat([simpleQuery("SELECT 'first'"), simpleQuery("SELECT 'second'")]))
    expect(values(await read.untilReady())).toEqual(["first"])
    expect(values(await read.untilReady())).toEqual(["second"])
    connection.end()
  })

  it("refuses TLS with 'N' and ends a cancel request's connection", async () => {
    const tls = pgliteConnection(db)
    const refused = new Promise<string>((resolve) => tls.once("data", (chunk: Buffer) => resolve(chunk.toString())))
    tls.write(PgProtocol.encodeSslRequest())
    expect(await refused).toBe("N")
    tls.end()

    const cancel = pgliteConnection(db)
    const ended = new Promise<void>((resolve) => cancel.once("end", resolve))
    cancel.resume()
    cancel.write(PgProtocol.encodeCancelRequest({ pid: 1, secret: 2 }))
    await ended
  })

  it("keeps nothing of the answers it relays: the heap does not grow with the queries", async () => {
    // PGlite's `execProtocolRaw` keeps every answer it parses; 5,000 answers of 20 rows held that way are tens of MB.
    setFlagsFromString("--expose-gc")
    const gc = runInNewContext("gc") as () => void
    const connection = pgliteConnection(db)
    const read = reader(connection)
    connection.write(startup())
    await read.untilReady()
    const query = simpleQuery("SELECT g, repeat('x', 50) FROM generate_series(1, 20) g")
    const run = async (times: number) => {
      for (let i = 0; i < times; i++) {
        connection.write(query)
        expect(values(await read.untilReady())).toHaveLength(20)
      }
    }
    await run(200)
    gc()
    const before = process.memoryUsage().heapUsed
    await run(5000)
    gc()
    const grown = process.memoryUsage().heapUsed - before
    expect(grown).toBeLessThan(5_000_000)
    connection.end()
  })

  it("closes a connection whose message claims an impossible length", async () => {
    const connection = pgliteConnection(db)
    const failed = new Promise<Error>((resolve) => connection.once("error", resolve))
    connection.resume()
    connection.write(int32(2))
    expect((await failed).message).toBe("PGlite connection: a message with an impossible length")
    expect(connection.destroyed).toBe(true)
  })
})
