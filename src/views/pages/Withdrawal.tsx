import { useState } from "react"
import { formatAmount } from "../../domain/money.ts"
import { maskAccount, validateWithdrawal } from "../../domain/payments.ts"
import type { PaymentAccount, WithdrawalRequest } from "../../schema/payments.ts"
import type { User } from "../../schema/user.ts"
import { Notices } from "../../services/notices.ts"
import { run } from "../../services/runtime.ts"
import { AccountModal, type AccountModalState } from "../modals/payments/AccountModal.tsx"
import { calls, idempotencyKey } from "../payments/calls.ts"
import { useAction, useResource } from "../payments/hooks.ts"
import { DateRangePicker, defaultRange, PlayerPage, rupees, StatusBadge, Table, when } from "../payments/ui.tsx"
import { Field, TextInput } from "../widgets/Form.tsx"
import { Icon } from "../widgets/Icon.tsx"

const accountLabel = (a: PaymentAccount) => (a.type === "upi" ? `UPI · ${a.accountNumber}` : `${a.bankName} · ${maskAccount(a.accountNumber)}`)

const Accounts = ({ accounts, onEdit, onAdd }: { accounts: ReadonlyArray<PaymentAccount>; onEdit: (a: PaymentAccount) => void; onAdd: (type: "upi" | "bank") => void }) => (
  <section aria-labelledby="my-accounts" className="flex flex-col gap-2">
    <div className="flex flex-wrap items-center justify-between gap-2">
      <h2 id="my-accounts" className="m-0 text-base font-700">Your accounts</h2>
      <div className="flex gap-2">
        <button type="button" className="btn-ghost py-1.5" onClick={() => onAdd("upi")}><Icon name="phone" size={16} /> Add UPI</button>
        <button type="button" className="btn-ghost py-1.5" onClick={() => onAdd("bank")}><Icon name="bank" size={16} /> Add Bank Account</button>
      </div>
    </div>
    {accounts.length === 0 ? <p className="card m-0 p-4 text-muted">Add a UPI id or a bank account to withdraw to.</p> : null}
    <ul className="m-0 grid list-none gap-2 p-0 sm:grid-cols-2">
      {accounts.map((a) => (
        <li key={a._id} className="card flex items-center justify-between gap-2 p-3" data-testid={`account-${a.type}`}>
          <div className="min-w-0">
            <p className="m-0 truncate font-600">{a.type === "upi" ? a.accountNumber : `${a.bankName} · ${a.accountNumber}`}</p>
            <p className="m-0 truncate text-xs text-muted">{a.accountHolderName}{a.type === "bank" ? ` · ${a.ifscCode} · ${a.accountType}` : " · UPI"}</p>
          </div>
          <button type="button" className="btn-ghost py-1 text-xs" onClick={() => onEdit(a)} aria-label={`${a.type === "upi" ? "Edit UPI" : "Edit Bank Account"} ${accountLabel(a)}`}>
            {a.type === "upi" ? "Edit UPI" : "Edit Bank Account"}
          </button>
        </li>
      ))}
    </ul>
  </section>
)

const WithdrawForm = ({ user, accounts, onDone }: { user: User; accounts: ReadonlyArray<PaymentAccount>; onDone: () => void }) => {
  const [amount, setAmount] = useState("")
  const [accountId, setAccountId] = useState<string>("")
  const { busy, run: act } = useAction()
  const available = user.balance + user.exposure
  const chosen = accountId || accounts[0]?._id
  return (
    <form
      className="card flex flex-col gap-3 p-4"
      aria-labelledby="withdraw-title"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        const problem = validateWithdrawal({ amount, accountId: chosen })
        if (problem) return void run(Notices.use((n) => n.warning(problem)))
        act("withdraw", () => calls.withdraw({ amount: Number(amount), accountId: chosen! }, idempotencyKey("withdrawal")), () => {
          setAmount("")
          onDone()
        })
      }}
    >
      <div className="flex items-baseline justify-between">
        <h2 id="withdraw-title" className="m-0 text-base font-700">Withdraw</h2>
        <span className="text-sm text-muted">Available: <strong className="text-fg" data-testid="withdrawable">₹{formatAmount(available)}</strong></span>
      </div>
      <Field label="Amount" hint="Minimum ₹100. The amount is held at once and paid to the account you choose.">
        {(p) => <TextInput {...p} inputMode="decimal" placeholder="Enter amount" value={amount} onChange={(e) => setAmount(e.target.value.replace(/[^\d.]/g, "").slice(0, 12))} />}
      </Field>
      <Field label="To account">
        {(p) => (
          <select {...p} className="field" value={chosen ?? ""} onChange={(e) => setAccountId(e.target.value)} disabled={accounts.length === 0}>
            {accounts.length === 0 ? <option value="">Add an account first</option> : null}
            {accounts.map((a) => <option key={a._id} value={a._id}>{accountLabel(a)}</option>)}
          </select>
        )}
      </Field>
      <button type="submit" className="btn-brand" disabled={busy !== undefined}>{busy ? "Requesting…" : "Withdraw"}</button>
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
      rupees(w.amount),
      accountLabel(w.account),
      <span className="flex flex-col gap-0.5"><StatusBadge status={w.status} />{w.remark ? <span className="text-xs text-muted">{w.remark}</span> : null}</span>
    ])}
  />
)

const WithdrawalBody = ({ user }: { user: User }) => {
  const [range, setRange] = useState(defaultRange())
  const accounts = useResource(() => calls.accounts, null)
  const history = useResource(calls.withdrawals, range)
  const [modal, setModal] = useState<AccountModalState>(undefined)
  const list = accounts.data ?? []
  return (
    <>
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,380px)]">
        <Accounts accounts={list} onAdd={(type) => setModal({ mode: "add", type })} onEdit={(account) => setModal({ mode: "edit", account })} />
        <WithdrawForm user={user} accounts={list} onDone={history.reload} />
      </div>
      <section aria-labelledby="withdrawal-history-title" className="flex flex-col gap-2">
        <div className="flex flex-wrap items-end justify-between gap-2">
          <h2 id="withdrawal-history-title" className="m-0 text-base font-700">Withdrawal requests</h2>
          <DateRangePicker value={range} onChange={setRange} />
        </div>
        <History rows={history.data ?? []} />
      </section>
      <AccountModal state={modal} onClose={() => setModal(undefined)} onSaved={accounts.reload} />
    </>
  )
}

const Withdrawal = () => <PlayerPage section="withdrawal" title="Withdrawal">{(user) => <WithdrawalBody user={user} />}</PlayerPage>

export default Withdrawal
