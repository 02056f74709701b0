import { Console, Effect, Schema } from "effect"
import { fixed2, toPaise } from "../../src/domain/money.ts"
import { parseInstant } from "../../src/domain/ranges.ts"
import type { DepositAccountPayload } from "../../src/schema/admin.ts"
import { RequestStatus } from "../../src/schema/payments.ts"
import { Roles } from "../../src/schema/user.ts"
import { Users } from "../identity/Users.ts"
import { Ledger } from "../ledger/Ledger.ts"
import { problemsOf, recordVerification } from "../ledger/verifications.ts"
import { Payments } from "../payments/Payments.ts"
import type { SqlError } from "effect/sql"
import type { ApiError } from "../../src/schema/envelope.ts"
import { Audit, CLI } from "../desk/Audit.ts"
import { Decisions } from "../desk/Decisions.ts"
import { type AdminCommand, explain, registerCommand, UsageError } from "./registry.ts"

/** The operator acting from the command line (decided_by on requests). */
const CLI_OPERATOR = "cli"

const need = (args: ReadonlyArray<string>, count: number, usage: string) => {
  if (args.length < count) throw new UsageError(usage)
  return args
}

const flag = (args: ReadonlyArray<string>, name: string) => {
  const index = args.indexOf(`--${name}`)
  return index === -1 ? undefined : args[index + 1]
}

/** --from / --to as calendar days (India time); by default everything up to now. */
const rangeFrom = (args: ReadonlyArray<string>) => {
  const from = flag(args, "from")
  const to = flag(args, "to")
  const range = { from: from ? parseInstant(from) : new Date(0), to: to ? parseInstant(to, true) : new Date() }
  if (!range.from || !range.to) throw new UsageError("--from and --to take dates as YYYY-MM-DD")
  return { from: range.from, to: range.to }
}

const statusFrom = (args: ReadonlyArray<string>) => {
  const status = flag(args, "status") ?? "pending"
  if (status === "all") return undefined
  if (!Schema.is(RequestStatus)(status)) throw new UsageError("--status must be pending, approved, rejected or all")
  return status
}

const rupees = (text: string) => {
  const paise = toPaise(Number(text))
  if (paise === undefined || paise <= 0) throw new UsageError(`${text} is not an amount in rupees (at most two decimals)`)
  return paise
}

const table = (rows: ReadonlyArray<Record<string, unknown>>) => (rows.length === 0 ? Console.log("(none)") : Console.table(rows))

export const verifyLedger: AdminCommand = {
  name: "verify-ledger",
  usage: "",
  description: "Checks every transaction balances, stored balances equal their entries, nothing is below its floor; keeps the outcome for the metrics. Exits 1 on any problem.",
  run: () =>
    Effect.gen(function*() {
      const check = yield* Ledger.use((ledger) => ledger.verify)
      yield* recordVerification(check)
      yield* Console.log(`transactions: ${check.transactions}`)
      yield* Console.log(`unbalanced transactions: ${check.unbalanced.length}`)
      yield* Console.log(`accounts whose balance differs from their entries: ${check.drifted.length}`)
      yield* Console.log(`accounts below their floor: ${check.belowFloor.length}`)
      yield* Console.log(`sum of all balances (must be 0): ${check.total}`)
      if (problemsOf(check) > 0) {
        for (const row of [...check.unbalanced, ...check.drifted, ...check.belowFloor]) yield* Console.log(JSON.stringify(row))
        return yield* Effect.fail(new Error("the ledger does not verify"))
      }
      yield* Console.log("ledger OK")
    })
}

const deposits: AdminCommand = {
  name: "deposits",
  usage: "[--status pending|approved|rejected|all] [--from YYYY-MM-DD] [--to YYYY-MM-DD]",
  description: "Lists deposit requests (pending by default).",
  run: (args) =>
    Effect.gen(function*() {
      const list = yield* Payments.use((p) => p.deposits({ ...rangeFrom(args), status: statusFrom(args) }))
      yield* table(list.map((d) => ({ id: d._id, player: d.user?.username, amount: fixed2(d.amount), type: d.type, ref: d.txnRef ?? "", screenshot: d.screenshot ? "yes" : "", status: d.status, at: d.createdAt })))
    })
}

const withdrawals: AdminCommand = {
  name: "withdrawals",
  usage: "[--status pending|approved|rejected|all] [--from YYYY-MM-DD] [--to YYYY-MM-DD]",
  description: "Lists withdrawal requests (pending by default) with the payout account.",
  run: (args) =>
    Effect.gen(function*() {
      const list = yield* Payments.use((p) => p.withdrawals({ ...rangeFrom(args), status: statusFrom(args) }))
      yield* table(list.map((w) => ({
        id: w._id,
        player: w.user?.username,
        amount: fixed2(w.amount),
        to: w.account.type === "upi" ? w.account.accountNumber : `${w.account.bankName} ${w.account.accountNumber} ${w.account.ifscCode}`,
        holder: w.account.accountHolderName,
        status: w.status,
        at: w.createdAt
      })))
    })
}

const decide = (name: string, description: string, act: (d: Decisions["Service"], id: string, remark: string | undefined) => Effect.Effect<{ status: string; amount: number }, unknown>): AdminCommand => ({
  name,
  usage: "<id> [remark]",
  description,
  run: (args) =>
    Effect.gen(function*() {
      const [id, ...remark] = need(args, 1, `${name} <id> [remark]`)
      const decisions = yield* Decisions
      const result = yield* explain(act(decisions, id!, remark.join(" ") || undefined) as Effect.Effect<{ status: string; amount: number }, ApiError | SqlError.SqlError>)
      yield* Console.log(`${id}: ${result.status} (₹${fixed2(result.amount)})`)
    })
})

const depositAccounts: AdminCommand = {
  name: "deposit-accounts",
  usage: "",
  description: "Lists the operator's deposit accounts (what players see on /deposit), active or not.",
  run: () =>
    Effect.gen(function*() {
      const list = yield* Payments.use((p) => p.depositAccounts({ includeInactive: true }))
      yield* table(list.map((a) => ({ id: a._id, type: a.type, number: a.accountNumber, holder: a.accountHolderName, bank: a.bankName ?? "", ifsc: a.ifscCode ?? "", active: a.active })))
    })
}

const accountPayload = (args: ReadonlyArray<string>): DepositAccountPayload => {
  const [type, number, ...holderWords] = args
  const holder = holderWords.filter((word, i) => !word.startsWith("--") && !holderWords[i - 1]?.startsWith("--")).join(" ")
  if ((type !== "upi" && type !== "bank") || !number || !holder) throw new UsageError("upi|bank <upi id or account number> <holder name> [--bank NAME --ifsc CODE --type savings|current]")
  if (type === "upi") return { type, accountNumber: number, accountHolderName: holder }
  const accountType = flag(args, "type") ?? "current"
  if (accountType !== "savings" && accountType !== "current") throw new UsageError("--type must be savings or current")
  return { type, accountNumber: number, accountHolderName: holder, bankName: flag(args, "bank") ?? "", ifscCode: flag(args, "ifsc") ?? "", accountType }
}

const addDepositAccount: AdminCommand = {
  name: "add-deposit-account",
  usage: "upi|bank <upi id or account number> <holder name> [--bank NAME --ifsc CODE --type savings|current]",
  description: "Adds a deposit account; a UPI account gets a generated QR code.",
  run: (args) =>
    Effect.gen(function*() {
      const account = yield* Audit.use((audit) => audit.around(CLI, { action: "deposit-account.add" }, Payments.use((p) => p.addDepositAccount(accountPayload(args)))))
      yield* Console.log(`added ${account._id} (${account.type} ${account.accountNumber})`)
    })
}

const setActive = (name: string, active: boolean): AdminCommand => ({
  name,
  usage: "<id>",
  description: active ? "Shows a deposit account to players again." : "Hides a deposit account from players (requests made to it stay).",
  run: (args) =>
    Effect.gen(function*() {
      const [id] = need(args, 1, `${name} <id>`)
      const payments = yield* Payments
      const current = (yield* payments.depositAccounts({ includeInactive: true })).find((a) => a._id === id)
      if (!current) return yield* Effect.fail(new Error(`no deposit account ${id}`))
      const { _id, active: _active, ...fields } = current
      yield* Audit.use((audit) => audit.around(CLI, { action: "deposit-account.update", subject: { kind: "deposit-account", id: id! } }, payments.updateDepositAccount(id!, { ...fields, active }), Effect.succeed(current)))
      yield* Console.log(`${id}: ${active ? "active" : "inactive"}`)
    })
})

const credit: AdminCommand = {
  name: "credit",
  usage: "<username> <amount in rupees> [note]",
  description: "Credits a player's main balance from the house (demos, goodwill), as one ledger transaction.",
  run: (args) =>
    Effect.gen(function*() {
      const [username, amount, ...note] = need(args, 2, "credit <username> <amount> [note]")
      const paise = rupees(amount!)
      const user = yield* Users.use((users) => users.byUsername(username!))
      if (!user) return yield* Effect.fail(new Error(`no player ${username}`))
      if (user.role !== Roles.PLAYER) return yield* Effect.fail(new Error(`${username} is not a player account`))
      const transactionId = yield* Audit.use((audit) =>
        audit.around(CLI, { action: "player.credit", subject: { kind: "player", id: user.id } }, Payments.use((p) => p.credit(user.id, paise, note.join(" "), CLI_OPERATOR)))
      )
      const balances = yield* Ledger.use((ledger) => ledger.balances(user.id))
      yield* Console.log(`credited ₹${fixed2(paise / 100)} to ${user.username} (transaction ${transactionId}); main balance ₹${fixed2(balances.main / 100)}`)
    })
}

const balances: AdminCommand = {
  name: "balances",
  usage: "<username>",
  description: "Shows a player's wallets (main, bonus, referral, held for withdrawals and bets).",
  run: (args) =>
    Effect.gen(function*() {
      const [username] = need(args, 1, "balances <username>")
      const user = yield* Users.use((users) => users.byUsername(username!))
      if (!user) return yield* Effect.fail(new Error(`no player ${username}`))
      const b = yield* Ledger.use((ledger) => ledger.balances(user.id))
      yield* table([Object.fromEntries(Object.entries(b).map(([k, v]) => [k, fixed2(v / 100)]))])
    })
}

registerCommand(
  verifyLedger,
  deposits,
  decide("approve-deposit", "Approves a pending deposit: credits the player's main balance exactly once.", (d, id, remark) => d.decideDeposit(CLI, id, { status: "approved", remark })),
  decide("reject-deposit", "Rejects a pending deposit (nothing moves).", (d, id, remark) => d.decideDeposit(CLI, id, { status: "rejected", remark })),
  withdrawals,
  decide("approve-withdrawal", "Marks a pending withdrawal as paid: the held amount leaves to the operator's payouts.", (d, id, remark) => d.decideWithdrawal(CLI, id, { status: "approved", remark })),
  decide("reject-withdrawal", "Rejects a pending withdrawal: the held amount goes back to the player's main balance.", (d, id, remark) => d.decideWithdrawal(CLI, id, { status: "rejected", remark })),
  depositAccounts,
  addDepositAccount,
  setActive("disable-deposit-account", false),
  setActive("enable-deposit-account", true),
  credit,
  balances
)
