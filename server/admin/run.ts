import { Cause, Console, Effect, Exit } from "effect"
import { type AdminCommand, type AdminServices, allCommands, findCommand, UsageError } from "./registry.ts"
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
  return { _tag: "Command", command, args }
}

/** Runs a command: 0 when done, 2 on a usage error, 1 when it failed (the reason printed). */
export const runCommand = (command: AdminCommand, args: ReadonlyArray<string>): Effect.Effect<number, never, AdminServices> =>
  Effect.gen(function*() {
    const exit = yield* Effect.exit(Effect.scoped(Effect.suspend(() => command.run(args))))
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

export const runCommandLine = (argv: ReadonlyArray<string>): Effect.Effect<number, never, AdminServices> => {
  const line = parseCommandLine(argv)
  return line._tag === "Printed" ? line.print : runCommand(line.command, line.args)
}
