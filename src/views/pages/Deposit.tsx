import { useActorRef } from "@xstate/react"
import { useState } from "react"
import { depositMachine } from "../../machines/deposit.machine.ts"
import type { DepositRequest, PaymentAccount } from "../../schema/payments.ts"
import { DepositModal } from "../modals/payments/DepositModal.tsx"
import { ScreenshotViewer } from "../modals/payments/ScreenshotViewer.tsx"
import { calls } from "../payments/calls.ts"
import { useResource } from "../payments/hooks.ts"
import { CopyButton, DateRangePicker, defaultRange, PlayerPage, rupees, StatusBadge, Table, when } from "../payments/ui.tsx"
import { DepositLimitPrompt } from "../protection/DepositLimitPrompt.tsx"
import { Icon } from "../widgets/Icon.tsx"

/** One operator account the player can pay into. */
const AccountCard = ({ account, onDeposit }: { account: PaymentAccount; onDeposit: () => void }) => (
  <article className="card flex flex-col gap-3 p-4" data-testid={`deposit-account-${account.type}`}>
    <header className="flex items-center gap-2">
      <Icon name={account.type === "upi" ? "phone" : "bank"} />
      <h3 className="m-0 text-sm font-700">{account.type === "upi" ? "UPI" : account.bankName}</h3>
    </header>
    {account.type === "upi" && account.image ? (
      <img src={account.image} alt={`QR code to pay ${account.accountNumber}`} width={140} height={140} className="self-center rounded bg-white p-1" />
    ) : null}
    <dl className="m-0 grid grid-cols-[auto_1fr] items-center gap-x-3 gap-y-1 text-sm">
      <dt className="text-muted">Name</dt>
      <dd className="m-0 flex items-center justify-between gap-1 font-600">{account.accountHolderName}<CopyButton value={account.accountHolderName} label="account holder name" /></dd>
      <dt className="text-muted">{account.type === "upi" ? "UPI id" : "A/c no."}</dt>
      <dd className="m-0 flex items-center justify-between gap-1 break-all font-600">{account.accountNumber}<CopyButton value={account.accountNumber} label={account.type === "upi" ? "UPI id" : "account number"} /></dd>
      {account.type === "bank" ? (
        <>
          <dt className="text-muted">IFSC</dt>
          <dd className="m-0 flex items-center justify-between gap-1 font-600">{account.ifscCode}<CopyButton value={account.ifscCode ?? ""} label="IFSC code" /></dd>
          <dt className="text-muted">Bank</dt>
          <dd className="m-0 flex items-center justify-between gap-1 font-600">{account.bankName}<CopyButton value={account.bankName ?? ""} label="bank name" /></dd>
        </>
      ) : null}
    </dl>
    <button type="button" className="btn-brand mt-auto" onClick={onDeposit}>
      {account.type === "upi" ? "Deposit by UPI" : "Deposit By Account"}
    </button>
  </article>
)

const History = ({ rows, onView }: { rows: ReadonlyArray<DepositRequest>; onView: (id: string) => void }) => (
  <Table
    caption="Your deposit requests"
    testId="deposit-history"
    head={["Date", "Amount", "Method", "Reference", "Screenshot", "Status"]}
    rows={rows.map((d) => [
      when(d.createdAt),
      rupees(d.amount),
      d.type === "upi" ? "UPI" : "Bank",
      d.txnRef ?? "—",
      d.screenshot ? <button type="button" className="text-brand hover:underline" onClick={() => onView(d.screenshot!)}>View</button> : "—",
      <span className="flex flex-col gap-0.5"><StatusBadge status={d.status} />{d.remark ? <span className="text-xs text-muted">{d.remark}</span> : null}</span>
    ])}
  />
)

const StoredScreenshot = ({ id, onClose }: { id: string | undefined; onClose: () => void }) => {
  const { data } = useResource((shot: string | undefined) => (signal) => (shot ? calls.screenshot(shot)(signal) : Promise.resolve(undefined)), id)
  return <ScreenshotViewer open={id !== undefined} image={data?._id === id ? data?.image : undefined} onClose={onClose} />
}

const DepositBody = () => {
  const [range, setRange] = useState(defaultRange())
  const accounts = useResource(() => calls.depositAccounts, null)
  const history = useResource(calls.deposits, range)
  const deposit = useActorRef(depositMachine.provide({ actions: { submitted: () => history.reload() } }))
  const [viewing, setViewing] = useState<string | undefined>(undefined)
  const list = accounts.data ?? []
  return (
    <>
      <DepositLimitPrompt />
      <section aria-labelledby="pay-to" className="flex flex-col gap-2">
        <h2 id="pay-to" className="m-0 text-sm font-700 text-muted">Pay to one of these accounts, then tell us the amount</h2>
        {accounts.loading && !accounts.data ? <p className="m-0 text-muted" role="status">Loading accounts…</p> : null}
        {accounts.data && list.length === 0 ? <p className="card m-0 p-4 text-muted">No deposit account is open right now. Please contact support.</p> : null}
        <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
          {list.map((account) => <AccountCard key={account._id} account={account} onDeposit={() => deposit.send({ type: "deposit.open", account })} />)}
        </div>
      </section>
      <section aria-labelledby="deposit-history-title" className="flex flex-col gap-2">
        <div className="flex flex-wrap items-end justify-between gap-2">
          <h2 id="deposit-history-title" className="m-0 text-base font-700">Deposit requests</h2>
          <DateRangePicker value={range} onChange={setRange} />
        </div>
        <History rows={history.data ?? []} onView={setViewing} />
      </section>
      <DepositModal deposit={deposit} />
      <StoredScreenshot id={viewing} onClose={() => setViewing(undefined)} />
    </>
  )
}

const Deposit = () => <PlayerPage section="deposit" title="Deposit">{() => <DepositBody />}</PlayerPage>

export default Deposit
