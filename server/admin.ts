/**
 * `npm run admin -- <command> [args]`: operator commands on the database the
 * server uses (DATABASE_URL, or the embedded database in DATA_DIR, which
 * needs the server stopped: one process owns a data folder).
 *
 * Commands live in a registry; a capability adds its own by importing its
 * module below (one line), where the module calls `registerCommand`.
 */
import { Cause, Effect, Exit, Layer, Logger, References } from "effect"
import { ServerConfig } from "./config.ts"
import { DatabaseLive } from "./db/database.ts"
import { allCommands, findCommand, UsageError } from "./admin/registry.ts"
import { AdminServicesLive } from "./admin/services.ts"
import "./admin/commands.ts"
import "./betting/commands.ts"
import "./desk/commands.ts"
import "./odds/commands.ts"
import "./integrity/commands.ts"
import "./protection/commands.ts"
import "./vitals/commands.ts"

const help = () => {
  console.log("Usage: npm run admin -- <command> [args]\n\nCommands:")
  console.log("  help\n      Lists the commands.")
  for (const command of allCommands()) console.log(`  ${command.name}${command.usage ? ` ${command.usage}` : ""}\n      ${command.description}`)
}

const main = async (argv: ReadonlyArray<string>) => {
  const [name, ...args] = argv
  if (name === undefined || name === "help" || name === "--help") {
    help()
    return 0
  }
  const command = findCommand(name)
  if (!command) {
    console.error(`Unknown command: ${name}\n`)
    help()
    return 2
  }
  const config = ServerConfig.fromEnv()
  const layer = AdminServicesLive.pipe(
    Layer.provideMerge(DatabaseLive),
    Layer.provide(ServerConfig.layer(config)),
    Layer.provide(Logger.layer([])),
    Layer.provide(Layer.succeed(References.MinimumLogLevel, "Error"))
  )
  const exit = await Effect.runPromiseExit(
    Effect.suspend(() => command.run(args)).pipe(Effect.provide(layer), Effect.scoped) as Effect.Effect<void, unknown>
  )
  if (Exit.isSuccess(exit)) return 0
  const error = Cause.squash(exit.cause)
  if (error instanceof UsageError) {
    console.error(`Usage: npm run admin -- ${command.name} ${command.usage}\n${error.message}`)
    return 2
  }
  const message = (error as { message?: string })?.message ?? String(error)
  console.error(`${command.name} failed: ${message}`)
  return 1
}

const code = await main(process.argv.slice(2))
// Done: what was printed goes out first, then the process ends, whatever timers a library left behind
// (a connection pool's idle timeout, the socket.io adapter's reconnection).
await Promise.all([process.stdout, process.stderr].map((stream) => new Promise((resolve) => stream.write("", resolve))))
process.exit(code)
