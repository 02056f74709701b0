import { Cause, Console, Effect, Exit } from "effect"
import type { ServerConfig } from "../config.ts"
import { type AdminCommand, type AdminServices, allCommands, findCommand, type StorageCommand, UsageError } from "./registry.ts"
import "./backup.ts"
import "./commands.ts"
import "../betting/commands.ts"
import "../desk/commands.ts"
import "../integrity/commands.ts"
import "../odds/commands.ts"
import "../protection/commands.ts"
import "../vitals/commands.ts"

/**
 * One `npm run admin` command line, run wherever the database is: in the CLI's
 * own process, or in the running server that holds the embedded database
 * (server/admin/socket.ts). What it prints goes to Effect's Console, which
 * is the terminal or the CLI's socket; the answer is the exit code.
 */
export type CommandLine =
  | { readonly _tag: "Printed"; readonly print: Effect.Effect<number> }
  | { readonly _tag: "Command"; readonly command: AdminCommand; readonly args: ReadonlyArray<string> }
  | { readonly _tag: "Storage"; readonly command: StorageCommand; readonly args: ReadonlyArray<string> }

const help = Effect.gen(function*() {
  yield* Console.log("Usage: npm run admin -- <command> [args]\n\nCommands:")
  yield* Console.log("  help\n      Lists the commands.")
  for (const command of allCommands()) yield* Console.log(`  ${command.name}${command.usage ? ` ${command.usage}` : ""}\n      ${command.description}`)
})

/** Help and unknown commands need no database. */
export const parseCommandLine = (argv: ReadonlyArray<string>): CommandLine => {
  const [name, ...args] = argv
  if (name === undefined || name === "help" || name === "--help") return { _tag: "Printed", print: Effect.as(help, 0) }
  const command = findCommand(name)
  if (!command) return { _tag: "Printed", print: Effect.as(Effect.andThen(Console.error(`Unknown command: ${name}\n`), help), 2) }
  return "storage" in command ? { _tag: "Storage", command, args } : { _tag: "Command", command, args }
}

/** Runs a command's program: 0 when done, 2 on a usage error, 1 when it failed (the reason printed). */
const exitCodeOf = <R>(command: AdminCommand | StorageCommand, program: () => Effect.Effect<void, unknown, R>) =>
  Effect.gen(function*() {
    const exit = yield* Effect.exit(Effect.scoped(Effect.suspend(program)))
    if (Exit.isSuccess(exit)) return 0
    const error = Cause.squash(exit.cause)
    if (error instanceof UsageError) {
      yield* Console.error(`Usage: npm run admin -- ${command.name} ${command.usage}\n${error.message}`)
      return 2
    }
    const message = (error as { message?: string })?.message ?? String(error)
    yield* Console.error(`${command.name} failed: ${message}`)
    return 1
  })

export const runCommand = (command: AdminCommand, args: ReadonlyArray<string>): Effect.Effect<number, never, AdminServices> =>
  exitCodeOf(command, () => command.run(args))

/** A backup or a restore: given the settings only, it opens the database its own way. */
export const runStorageCommand = (command: StorageCommand, args: ReadonlyArray<string>): Effect.Effect<number, never, ServerConfig> =>
  exitCodeOf(command, () => command.run(args))

export const runCommandLine = (argv: ReadonlyArray<string>): Effect.Effect<number, never, AdminServices> => {
  const line = parseCommandLine(argv)
  if (line._tag === "Printed") return line.print
  // A running server never backs itself up or restores over itself: the CLI runs these with the server stopped.
  if (line._tag === "Storage") return Effect.as(Console.error(`${line.command.name} runs with the server stopped.`), 2)
  return runCommand(line.command, line.args)
}
