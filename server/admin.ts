/**
 * `npm run admin -- <command> [args]`: operator commands on the database the
 * server uses (DATABASE_URL, or the embedded database in DATA_DIR). One
 * process owns an embedded database: when a server runs on it, the server
 * runs the command (server/admin/socket.ts); else the CLI opens it.
 *
 * Commands live in a registry; a capability adds its own by importing its
 * module in server/admin/run.ts (one line), where the module calls `registerCommand`.
 */
import { Cause, Console, Effect, Layer, Logger, References } from "effect"
import { ServerConfig } from "./config.ts"
import { DatabaseLive } from "./db/database.ts"
import { parseCommandLine, runCommand, runStorageCommand } from "./admin/run.ts"
import { AdminServicesLive } from "./admin/services.ts"
import { runOnServer } from "./admin/socket.ts"
import { Push } from "./push/Push.ts"

const main = async (argv: ReadonlyArray<string>) => {
  const line = parseCommandLine(argv)
  if (line._tag === "Printed") return Effect.runPromise(line.print)
  const config = ServerConfig.fromEnv()
  const quiet = Layer.mergeAll(Logger.layer([]), Layer.succeed(References.MinimumLogLevel, "Error"))
  // A backup or a restore opens the storage itself, never through a running server.
  if (line._tag === "Storage") {
    return Effect.runPromise(runStorageCommand(line.command, line.args).pipe(Effect.provide(ServerConfig.layer(config)), Effect.provide(quiet)))
  }
  // The embedded database belongs to the server running on it, if any: it runs the command (server/admin/socket.ts).
  if (!config.databaseUrl) {
    const answered = await runOnServer(config.dataDir, argv)
    if (answered !== undefined) return answered
  }
  const layer = AdminServicesLive.pipe(
    Layer.provideMerge(DatabaseLive),
    Layer.provide(ServerConfig.layer(config)),
    Layer.provide(quiet)
  )
  return Effect.runPromise(
    runCommand(line.command, line.args).pipe(
      // The notifications a command sent (a deposit approved) reach the push service before the process ends.
      Effect.tap(() => Push.use((push) => push.settled)),
      Effect.provide(layer),
      // The database could not be opened (another process holds it, a bad DATABASE_URL).
      Effect.catchCause((cause) => {
        const error = Cause.squash(cause)
        return Effect.as(Console.error(`${line.command.name} failed: ${error instanceof Error ? error.message : String(error)}`), 1)
      })
    )
  )
}

const code = await main(process.argv.slice(2))
// Done: what was printed goes out first, then the process ends, whatever timers a library left behind
// (a connection pool's idle timeout, the socket.io adapter's reconnection).
await Promise.all([process.stdout, process.stderr].map((stream) => new Promise((resolve) => stream.write("", resolve))))
process.exit(code)
