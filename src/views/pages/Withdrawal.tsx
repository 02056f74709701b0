import { useSelector } from "@xstate/react"
import { availableBalance } from "../../domain/account.ts"
import { formatRupees } from "../../domain/money.ts"
import { maskAccount, MIN_WITHDRAWAL } from "../../domain/payments.ts"
import { lastIndiaDays } from "../../domain/ranges.ts"
import type { FlowRef } from "../../machines/flows.ts"
import { chosenAccount } from "../../machines/withdrawal.machine.ts"
import type { PaymentAccount, WithdrawalRequest } from "../../schema/payments.ts"
import type { User } from "../../schema/user.ts"
import { useOffline } from "../connectivity.ts"
import { useFlow } from "../flows.ts"
import { AccountModal, type PayoutAccountsRef } from "../modals/payments/AccountModal.tsx"
import { DateRangePicker, PlayerPage, StatusBadge, Table, when } from "../payments/ui.tsx"
import { Field, TextInput } from "../widgets/Form.tsx"
import { Icon } from "../widgets/Icon.tsx"

type WithdrawalRef = FlowRef<"withdrawal">

const accountLabel = (a: PaymentAccount) => (a.type === "upi" ? `UPI · ${a.accountNumber}` : `${a.bankName} · ${maskAccount(a.accountNumber)}`)

const Accounts = ({ accounts }: { accounts: PayoutAccountsRef }) => {
  const list = useSelector(accounts, (s) => s.context.accounts)
  return (
    <section aria-labelledby="my-accounts" className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="my-accounts" className="m-0 text-base font-700">Your accounts</h2>
        <div className="flex gap-2">
          <button type="button" className="btn-ghost py-1.5" onClick={() => accounts.send({ type: "account.add", kind: "upi" })}><Icon name="phone" size={16} /> Add UPI</button>
          <button type="button" className="btn-ghost py-1.5" onClick={() => accounts.send({ type: "account.add", kind: "bank" })}><Icon name="bank" size={16} /> Add Bank Account</button>
        </div>
      </div>
      {list.length === 0 ? <p className="card m-0 p-4 text-muted">Add a UPI id or a bank account to withdraw to.</p> : null}
      <ul className="m-0 grid list-none gap-2 p-0 sm:grid-cols-2">
        {list.map((a) => (
          <li key={a._id} className="card flex items-center justify-between gap-2 p-3" data-testid={`account-${a.type}`}>
            <div className="min-w-0">
              <p className="m-0 truncate font-600">{a.type === "upi" ? a.accountNumber : `${a.bankName} · ${a.accountNumber}`}</p>
              <p className="m-0 truncate text-xs text-muted">{a.accountHolderName}{a.type === "bank" ? ` · ${a.ifscCode} · ${a.accountType}` : " · UPI"}</p>
            </div>
            <button
              type="button"
              className="btn-ghost py-1 text-xs"
              onClick={() => accounts.send({ type: "account.edit", accountId: a._id })}
              aria-label={`${a.type === "upi" ? "Edit UPI" : "Edit Bank Account"} ${accountLabel(a)}`}
            >
              {a.type === "upi" ? "Edit UPI" : "Edit Bank Account"}
            </button>
          </li>
        ))}
      </ul>
    </section>
  )
}

const WithdrawForm = ({ withdrawal, user }: { withdrawal: WithdrawalRef; user: User }) => {
  const form = useSelector(withdrawal, (s) => s.context.form)
  const accounts = useSelector(withdrawal, (s) => s.context.accounts)
  const chosen = useSelector(withdrawal, (s) => chosenAccount(s.context))
  const busy = useSelector(withdrawal, (s) => s.hasTag("busy"))
  const offline = useOffline()
  return (
    <form
      className="card flex flex-col gap-3 p-4"
      aria-labelledby="withdraw-title"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        withdrawal.send({ type: "withdraw.submit" })
      }}
    >
      <div className="flex items-baseline justify-between">
        <h2 id="withdraw-title" className="m-0 text-base font-700">Withdraw</h2>
        <span className="text-sm text-muted">Available: <strong className="text-fg" data-testid="withdrawable">{formatRupees(availableBalance(user))}</strong></span>
      </div>
      <Field label="Amount" hint={`Minimum ${formatRupees(MIN_WITHDRAWAL)}. The amount is held at once and paid to the account you choose.`}>
        {(p) => (
          <TextInput
            {...p}
            inputMode="decimal"
            placeholder="Enter amount"
            value={form.amount}
            readOnly={busy}
            onChange={(e) => withdrawal.send({ type: "field.change", field: "amount", value: e.target.value })}
          />
        )}
      </Field>
      <Field label="To account">
        {(p) => (
          <select
            {...p}
            className="field"
            value={chosen ?? ""}
            onChange={(e) => withdrawal.send({ type: "field.change", field: "accountId", value: e.target.value })}
            disabled={accounts.length === 0 || busy}
          >
            {accounts.length === 0 ? <option value="">Add an account first</option> : null}
            {accounts.map((a) => <option key={a._id} value={a._id}>{accountLabel(a)}</option>)}
          </select>
        )}
      </Field>
      <button type="submit" className="btn-brand" disabled={busy || offline}>{busy ? "Requesting…" : "Withdraw"}</button>
    </form>
  )
}

const History = ({ rows }: { rows: ReadonlyArray<WithdrawalRequest> }) => (
  <Table
    caption="Your withdrawal requests"
    testId="withdrawal-history"
    head={["Date", "Amount", "To", "Status"]}
    rows={rows.map((w) => [
      when(w.createdAt),
      formatRupees(w.amount),
      accountLabel(w.account),
      <span className="flex flex-col gap-0.5"><StatusBadge status={w.status} />{w.remark ? <span className="text-xs text-muted">{w.remark}</span> : null}</span>
    ])}
  />
)

const WithdrawalView = ({ withdrawal, user }: { withdrawal: WithdrawalRef; user: User }) => {
  const accounts = useSelector(withdrawal, (s) => s.children.payoutAccounts)
  const range = useSelector(withdrawal, (s) => s.context.range)
  const history = useSelector(withdrawal, (s) => s.context.history)
  return (
    <>
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,380px)]">
        {accounts ? <Accounts accounts={accounts} /> : null}
        <WithdrawForm withdrawal={withdrawal} user={user} />
      </div>
      <section aria-labelledby="withdrawal-history-title" className="flex flex-col gap-2">
        <div className="flex flex-wrap items-end justify-between gap-2">
          <h2 id="withdrawal-history-title" className="m-0 text-base font-700">Withdrawal requests</h2>
          <DateRangePicker value={range} onChange={(next) => withdrawal.send({ type: "range.change", range: next })} />
        </div>
        <History rows={history} />
      </section>
      {accounts ? <AccountModal accounts={accounts} /> : null}
    </>
  )
}

const WithdrawalBody = ({ user }: { user: User }) => {
  const withdrawal = useFlow("withdrawal", { input: { range: lastIndiaDays(7) } })
  return withdrawal ? <WithdrawalView withdrawal={withdrawal} user={user} /> : null
}

const Withdrawal = () => <PlayerPage section="withdrawal" title="Withdrawal">{(user) => <WithdrawalBody user={user} />}</PlayerPage>

export default Withdrawal
