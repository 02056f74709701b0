import type { PGlite } from "@electric-sql/pglite"
import { type Duplex, duplexPair } from "node:stream"

/** The codes a packet without a type byte carries after its length: TLS asked for, or a cancel request. */
const SSL_REQUEST = 80877103
const CANCEL_REQUEST = 80877102

/**
 * The length of the first whole message in `buffer`, 0 while it is still incomplete, or -1 if its length cannot
 * be. The start-up packet (and a TLS or cancel request) has no type byte: its length comes first; every later
 * message is a type byte and then its length, which counts itself but not the type.
 */
const firstMessage = (buffer: Buffer, started: boolean) => {
  const header = started ? 5 : 4
  if (buffer.length < header) return 0
  const length = started ? 1 + buffer.readInt32BE(1) : buffer.readInt32BE(0)
  if (length < header) return -1
  return buffer.length >= length ? length : 0
}

/**
 * A connection to the embedded database inside this process: the client's protocol messages go straight to
 * PGlite and its answers come straight back over an in-memory stream. No port is open (PGlite trusts whoever
 * connects, so a loopback port would let any local process in), and no kernel socket sits between the two.
 * PGlite is one backend, so its client keeps to one connection.
 */
export const pgliteConnection = (db: PGlite): Duplex => {
  const [client, server] = duplexPair()
  let buffer: Buffer = Buffer.alloc(0)
  let started = false
  // Messages are answered strictly in order, each batch after the one before.
  let answered = Promise.resolve()

  // `execProtocolRawStream`, not `execProtocolRaw`: the latter also parses every answer and keeps each parsed
  // message in a list only its high-level calls empty, so a server that only relays bytes grows without end.
  // The files are synced once a batch, before its answers leave (each sync takes PGlite's lock, a promise chain
  // per message otherwise), so the client never hears of a commit that is not on disk.
  const answer = async (messages: ReadonlyArray<Uint8Array>) => {
    const replies: Array<Buffer> = []
    // A copy: the bytes are a view of PGlite's memory, reused by the next message.
    const onRawData = (bytes: Uint8Array) => void replies.push(Buffer.from(bytes))
    for (const message of messages) await db.execProtocolRawStream(message, { onRawData, syncToFs: false })
    await db.syncToFs()
    if (replies.length > 0 && server.writable) server.write(Buffer.concat(replies))
  }

  server.on("data", (chunk: Buffer) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk])
    const messages: Array<Uint8Array> = []
    for (let length = firstMessage(buffer, started); length !== 0; length = firstMessage(buffer, started)) {
      if (length < 0) {
        client.destroy(new Error("PGlite connection: a message with an impossible length"))
        return
      }
      const code = !started && length >= 8 ? buffer.readInt32BE(4) : 0
      // A copy: the chunk's memory is not ours to keep.
      const message = new Uint8Array(buffer.subarray(0, length))
      buffer = buffer.subarray(length)
      if (!started) {
        // No TLS inside one process; a cancel has nothing to stop (PGlite answers one message at a time).
        if (code === SSL_REQUEST) {
          server.write("N")
          continue
        }
        if (code === CANCEL_REQUEST) {
          server.end()
          return
        }
        started = true
      }
      messages.push(message)
    }
    // A failure ends the connection on the client's side (which the client hears as an error) and with it this side.
    if (messages.length > 0) answered = answered.then(() => answer(messages)).catch((error: unknown) => {
      client.destroy(error instanceof Error ? error : new Error(String(error)))
    })
  })
  // The client's end (after its Terminate) ends this side too.
  server.on("end", () => server.end())
  return client
}
