import { useSelector } from "@xstate/react"
import { formatRupees } from "../../domain/money.ts"
import { lastIndiaDays } from "../../domain/ranges.ts"
import type { FlowRef } from "../../machines/flows.ts"
import type { DepositRequest, PaymentAccount } from "../../schema/payments.ts"
import { useFlow } from "../flows.ts"
import { type DepositFormRef, DepositModal } from "../modals/payments/DepositModal.tsx"
import { ScreenshotViewer } from "../modals/payments/ScreenshotViewer.tsx"
import { CopyButton, DateRangePicker, PlayerPage, StatusBadge, Table, when } from "../payments/ui.tsx"
import { DepositLimitPrompt } from "../protection/DepositLimitPrompt.tsx"
import { Icon } from "../widgets/Icon.tsx"

type DepositRef = FlowRef<"deposit">

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

const History = ({ rows, onView }: { rows: ReadonlyArray<DepositRequest>; onView: (screenshotId: string) => void }) => (
  <Table
    caption="Your deposit requests"
    testId="deposit-history"
    head={["Date", "Amount", "Method", "Reference", "Screenshot", "Status"]}
    rows={rows.map((d) => [
      when(d.createdAt),
      formatRupees(d.amount),
      d.type === "upi" ? "UPI" : "Bank",
      d.txnRef || "—",
      d.screenshot ? <button type="button" className="text-brand hover:underline" onClick={() => onView(d.screenshot!)}>View</button> : "—",
      <span className="flex flex-col gap-0.5"><StatusBadge status={d.status} />{d.remark ? <span className="text-xs text-muted">{d.remark}</span> : null}</span>
    ])}
  />
)

/** The operator's accounts to pay into, each with its Deposit button. */
const PayTo = ({ deposit }: { deposit: DepositFormRef }) => {
  const accounts = useSelector(deposit, (s) => s.context.accounts)
  const state = useSelector(deposit, (s) => (s.hasTag("loading") ? "loading" : s.hasTag("failed") ? "failed" : "ready"))
  return (
    <section aria-labelledby="pay-to" className="flex flex-col gap-2">
      <h2 id="pay-to" className="m-0 text-sm font-700 text-muted">Pay to one of these accounts, then tell us the amount</h2>
      {state === "loading" && accounts.length === 0 ? <p className="m-0 text-muted" role="status">Loading accounts…</p> : null}
      {state === "failed" ? (
        <div className="card flex items-center justify-between gap-3 p-4">
          <p className="m-0 text-muted">The deposit accounts could not be loaded.</p>
          <button type="button" className="btn-ghost" onClick={() => deposit.send({ type: "accounts.reload" })}>Try again</button>
        </div>
      ) : null}
      {state === "ready" && accounts.length === 0 ? <p className="card m-0 p-4 text-muted">No deposit account is open right now. Please contact support.</p> : null}
      <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
        {accounts.map((account) => <AccountCard key={account._id} account={account} onDeposit={() => deposit.send({ type: "deposit.open", accountId: account._id })} />)}
      </div>
    </section>
  )
}

/** A filed request's screenshot, as the server stored it. */
const StoredScreenshot = ({ deposit }: { deposit: DepositRef }) => {
  const open = useSelector(deposit, (s) => s.hasTag("screenshot"))
  const image = useSelector(deposit, (s) => s.context.stored?.image)
  return <ScreenshotViewer open={open} image={image} onClose={() => deposit.send({ type: "stored.close" })} />
}

const DepositView = ({ deposit }: { deposit: DepositRef }) => {
  const form = useSelector(deposit, (s) => s.children.depositForm)
  const range = useSelector(deposit, (s) => s.context.range)
  const history = useSelector(deposit, (s) => s.context.history)
  return (
    <>
      <DepositLimitPrompt />
      {form ? <PayTo deposit={form} /> : null}
      <section aria-labelledby="deposit-history-title" className="flex flex-col gap-2">
        <div className="flex flex-wrap items-end justify-between gap-2">
          <h2 id="deposit-history-title" className="m-0 text-base font-700">Deposit requests</h2>
          <DateRangePicker value={range} onChange={(next) => deposit.send({ type: "range.change", range: next })} />
        </div>
        <History rows={history} onView={(screenshotId) => deposit.send({ type: "stored.view", screenshotId })} />
      </section>
      {form ? <DepositModal deposit={form} /> : null}
      <StoredScreenshot deposit={deposit} />
    </>
  )
}

const DepositBody = () => {
  const deposit = useFlow("deposit", { input: { range: lastIndiaDays(7) } })
  return deposit ? <DepositView deposit={deposit} /> : null
}

const Deposit = () => <PlayerPage section="deposit" title="Deposit">{() => <DepositBody />}</PlayerPage>

export default Deposit
