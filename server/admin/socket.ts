import { Console, Effect, Layer, Schema } from "effect"
import { chmodSync, existsSync, rmSync } from "node:fs"
import { createConnection, createServer, type Socket } from "node:net"
import { join } from "node:path"
import { Console as NodeConsole } from "node:console"
import { Writable } from "node:stream"
import { ServerConfig } from "../config.ts"
import type { AdminServices } from "./registry.ts"
import { runCommandLine } from "./run.ts"

/**
 * `npm run admin` beside a running server. The embedded database has one
 * owner (the data folder's lock), so the server that holds it takes the
 * CLI's command lines on a Unix socket in that folder (owner-only, like the
 * database files beside it) and runs them on its own services: the same
 * commands, audited as the CLI's, and a deposit approved there reaches the
 * player's open tab at once. On PostgreSQL the CLI opens the database itself.
 *
 * The protocol, one JSON object a line: the CLI sends `{"argv": [...]}`; the
 * server answers `{"out": text}` and `{"err": text}` as the command prints,
 * then `{"exit": code}`.
 */
export const adminSocketPath = (dataDir: string) => join(dataDir, "admin.sock")

const Request = Schema.fromJsonString(Schema.Struct({ argv: Schema.Array(Schema.String.check(Schema.isMaxLength(1000))).check(Schema.isMaxLength(100)) }))
const Answer = Schema.fromJsonString(Schema.Union([
  Schema.Struct({ out: Schema.String }),
  Schema.Struct({ err: Schema.String }),
  Schema.Struct({ exit: Schema.Int })
]))

/** A Node console whose output goes down the socket as `out` / `err` lines (console.table's layout included). */
const socketConsole = (socket: Socket) => {
  const stream = (key: "out" | "err") =>
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        if (socket.writable) socket.write(`${JSON.stringify({ [key]: chunk.toString("utf8") })}\n`)
        done()
      }
    })
  return new NodeConsole({ stdout: stream("out"), stderr: stream("err"), colorMode: false })
}

const MAX_LINE = 200_000

export const AdminSocketLive = Layer.effectDiscard(Effect.gen(function*() {
  const config = yield* ServerConfig
  if (config.databaseUrl) return
  const services = yield* Effect.context<AdminServices>()
  const path = adminSocketPath(config.dataDir)
  let listening: ReturnType<typeof createServer> | undefined

  const serve = (socket: Socket) => {
    let buffer = ""
    socket.setEncoding("utf8")
    socket.on("error", () => socket.destroy())
    socket.on("data", (chunk: string) => {
      buffer += chunk
      if (buffer.length > MAX_LINE) return void socket.destroy()
      const end = buffer.indexOf("\n")
      if (end === -1) return
      socket.removeAllListeners("data")
      const request = Schema.decodeUnknownOption(Request)(buffer.slice(0, end))
      if (request._tag === "None") return void socket.end(`${JSON.stringify({ err: "not a command line\n" })}\n${JSON.stringify({ exit: 2 })}\n`)
      void Effect.runPromise(
        runCommandLine(request.value.argv).pipe(Effect.provideService(Console.Console, socketConsole(socket)), Effect.provide(services))
      ).then((code) => socket.end(`${JSON.stringify({ exit: code })}\n`))
    })
  }

  yield* Effect.acquireRelease(
    Effect.callback<void>((resume) => {
      // This process holds the data folder's lock: a socket file there is one a stopped server left.
      rmSync(path, { force: true })
      const server = createServer(serve)
      server.once("error", (error) => resume(Effect.die(error)))
      server.listen(path, () => {
        chmodSync(path, 0o600)
        resume(Effect.void)
      })
      listening = server
    }),
    () => Effect.callback<void>((resume) => {
      if (!listening) return resume(Effect.void)
      listening.close(() => resume(Effect.void))
      rmSync(path, { force: true })
    })
  )
}))

/**
 * Sends a command line to the server holding the embedded database in `dataDir`, printing what it answers;
 * the exit code, or undefined when no server listens there (the CLI then opens the database itself).
 */
export const runOnServer = (dataDir: string, argv: ReadonlyArray<string>): Promise<number | undefined> => {
  const path = adminSocketPath(dataDir)
  if (!existsSync(path)) return Promise.resolve(undefined)
  return new Promise((resolve) => {
    let buffer = ""
    let exit: number | undefined
    let answered = false
    const socket = createConnection(path, () => socket.write(`${JSON.stringify({ argv })}\n`))
    socket.setEncoding("utf8")
    socket.on("data", (chunk: string) => {
      answered = true
      buffer += chunk
      let end: number
      while ((end = buffer.indexOf("\n")) !== -1) {
        const answer = Schema.decodeUnknownOption(Answer)(buffer.slice(0, end))
        buffer = buffer.slice(end + 1)
        if (answer._tag === "None") continue
        const value = answer.value
        if ("out" in value) process.stdout.write(value.out)
        else if ("err" in value) process.stderr.write(value.err)
        else exit = value.exit
      }
    })
    // Refused or gone before answering: nobody serves the folder (a server killed left its socket).
    socket.on("error", () => resolve(answered ? (exit ?? 1) : undefined))
    socket.on("close", () => resolve(answered ? (exit ?? 1) : undefined))
  })
}
