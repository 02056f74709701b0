import { Console, Effect } from "effect"
import { backup, restore } from "../db/backup.ts"
import { registerCommand, UsageError } from "./registry.ts"

const fileOf = (args: ReadonlyArray<string>) => {
  if (args.length !== 1 || args[0]!.startsWith("-")) throw new UsageError("Name one file.")
  return args[0]!
}

registerCommand(
  {
    name: "backup",
    usage: "<file>",
    description: "Backs the database up into one file: pg_dump with DATABASE_URL (the servers may run), else the embedded database and its uploads (server stopped).",
    storage: true,
    run: (args) => Effect.gen(function*() {
      const file = fileOf(args)
      yield* Console.log(`backed up ${yield* backup(file)} into ${file}`)
    })
  },
  {
    name: "restore",
    usage: "<file>",
    description: "Restores a backup into an empty database: DATABASE_URL's (created empty), else an empty DATA_DIR. Then run verify-ledger.",
    storage: true,
    run: (args) => Effect.gen(function*() {
      const file = fileOf(args)
      yield* Console.log(`restored ${yield* restore(file)} from ${file}`)
    })
  }
)
