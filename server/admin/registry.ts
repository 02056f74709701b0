import { Effect } from "effect"
import type { SqlClient, SqlError } from "effect/sql"
import type { ApiError } from "../../src/schema/envelope.ts"
import type { ServerConfig } from "../config.ts"
import type { Users } from "../identity/Users.ts"
import type { Signals } from "../integrity/Signals.ts"
import type { Idempotency } from "../ledger/Idempotency.ts"
import type { Ledger } from "../ledger/Ledger.ts"
import type { Push } from "../push/Push.ts"
import type { Realtime } from "../realtime/Realtime.ts"
import type { Audit } from "../desk/Audit.ts"
import type { Decisions } from "../desk/Decisions.ts"
import type { PaymentServices, ProtectionServices } from "./services.ts"

/** What a command's program may use; a command needing more provides it itself (`Effect.provide(MyService.layer)`). */
export type AdminServices = SqlClient.SqlClient | Ledger | Idempotency | Users | Realtime | Push | Signals | PaymentServices | ProtectionServices | Audit | Decisions

export interface AdminCommand {
  readonly name: string
  /** Arguments, as `help` shows them: "<id> [remark]". */
  readonly usage: string
  readonly description: string
  /**
   * Prints what it did (console.log) and fails to exit non-zero. `args` are
   * the words after the command's name.
   */
  readonly run: (args: ReadonlyArray<string>) => Effect.Effect<void, unknown, AdminServices>
}

/**
 * A command on the database's storage itself (a backup, a restore): it is given the settings only and opens the
 * database its own way, without migrating it or starting any service.
 */
export interface StorageCommand extends Omit<AdminCommand, "run"> {
  readonly storage: true
  readonly run: (args: ReadonlyArray<string>) => Effect.Effect<void, unknown, ServerConfig>
}

const commands = new Map<string, AdminCommand | StorageCommand>()

/** Adds commands to `npm run admin`; a module registers its own when server/admin.ts imports it. */
export const registerCommand = (...list: ReadonlyArray<AdminCommand | StorageCommand>) => {
  for (const command of list) {
    if (commands.has(command.name)) throw new Error(`admin command ${command.name} is registered twice`)
    commands.set(command.name, command)
  }
}

export const findCommand = (name: string) => commands.get(name)

export const allCommands = () => [...commands.values()].sort((a, b) => a.name.localeCompare(b.name))

/** A command's usage error: printed with its usage line, exit code 2. */
export class UsageError extends Error {}

/** A refusal (unknown market, already settled, a player not found…) carries a message for people: print it, exit 1. */
export const explain = <A, R>(effect: Effect.Effect<A, ApiError | SqlError.SqlError, R>) =>
  effect.pipe(Effect.catchTag("ApiError", (error) => Effect.fail(new Error(error.message))))
