import { useSelector } from "@xstate/react"
import { formatRupees, wholeAmount } from "../../../domain/money.ts"
import { ACCOUNT_TYPE_LABEL, DEPOSIT_QUICK_AMOUNTS, MIN_DEPOSIT, type PickedScreenshot, upiPayUrl } from "../../../domain/payments.ts"
import type { ActorRefFrom } from "xstate"
import type { depositFormMachine } from "../../../machines/depositForm.machine.ts"
import type { PaymentAccount } from "../../../schema/payments.ts"
import { useOffline } from "../../connectivity.ts"
import { CopyButton } from "../../payments/ui.tsx"
import { Dialog } from "../../widgets/Dialog.tsx"
import { Field, TextInput } from "../../widgets/Form.tsx"
import { Icon } from "../../widgets/Icon.tsx"
import { ScreenshotViewer } from "./ScreenshotViewer.tsx"

export type DepositFormRef = ActorRefFrom<typeof depositFormMachine>

/** The picked file as plain data for the machine (its checks and the payload are the machine's). */
const readFile = (file: File) =>
  new Promise<PickedScreenshot>((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve({ dataUrl: String(reader.result), name: file.name, type: file.type, size: file.size })
    reader.onerror = () => reject(reader.error)
    reader.readAsDataURL(file)
  })

const Detail = ({ label, value }: { label: string; value: string }) => (
  <div className="flex items-center justify-between gap-2 border-b border-line py-1.5 last:border-0">
    <span className="shrink-0 text-xs text-muted">{label}</span>
    <span className="flex min-w-0 items-center gap-1 text-sm font-600">
      {/* Long names wrap between words; only a single word wider than the line (a long UPI id) breaks inside. */}
      <span className="min-w-0 text-right [overflow-wrap:anywhere]" data-testid={`detail-${label.toLowerCase().replace(/[^a-z]+/g, "-")}`}>{value}</span>
      <CopyButton value={value} label={label} />
    </span>
  </div>
)

/**
 * Where the money goes: the UPI id with its QR (and, on a phone, which cannot scan its own screen, a link that opens
 * the player's UPI app with the payment filled in), or every bank detail with a copy button.
 */
const AccountDetails = ({ account, amount }: { account: PaymentAccount; amount: string }) =>
  account.type === "upi" ? (
    <div className="flex flex-col items-center gap-2 rounded-lg border border-line bg-bg p-3">
      {account.image ? <img src={account.image} alt={`QR code to pay ${account.accountNumber}`} width={160} height={160} className="rounded bg-white p-1" /> : null}
      <a href={upiPayUrl(account, amount)} className="btn-brand w-full md:hidden" data-testid="upi-app-link">
        <Icon name="phone" size={16} /> Pay with a UPI app
      </a>
      <div className="w-full">
        <Detail label="Account holder" value={account.accountHolderName} />
        <Detail label="UPI id" value={account.accountNumber} />
      </div>
    </div>
  ) : (
    <div className="rounded-lg border border-line bg-bg px-3 py-1">
      <Detail label="Account holder" value={account.accountHolderName} />
      <Detail label="Bank name" value={account.bankName ?? ""} />
      <Detail label="Account number" value={account.accountNumber} />
      <Detail label="IFSC code" value={account.ifscCode ?? ""} />
      {account.accountType ? <Detail label="Account type" value={ACCOUNT_TYPE_LABEL[account.accountType]} /> : null}
    </div>
  )

/** Deposit by UPI and Deposit By Account (SPEC section 2): the fields are the deposit machine's context, the checks and the submission its own. */
export const DepositModal = ({ deposit }: { deposit: DepositFormRef }) => {
  const open = useSelector(deposit, (s) => s.hasTag("open"))
  const viewing = useSelector(deposit, (s) => s.hasTag("viewing"))
  const busy = useSelector(deposit, (s) => s.hasTag("busy"))
  const offline = useOffline()
  const account = useSelector(deposit, (s) => s.context.account)
  const { amount, txnRef } = useSelector(deposit, (s) => s.context.form)
  const screenshot = useSelector(deposit, (s) => s.context.screenshot)
  if (!account) return null
  const upi = account.type === "upi"
  return (
    <>
      <Dialog open={open && !viewing} title={upi ? "Deposit by UPI" : "Deposit By Account"} onClose={() => deposit.send({ type: "deposit.close" })} testId="deposit-modal">
        <form
          className="flex flex-col gap-3"
          noValidate
          onSubmit={(event) => {
            event.preventDefault()
            deposit.send({ type: "deposit.submit" })
          }}
        >
          <AccountDetails account={account} amount={amount} />
          <Field label="Amount" hint={`Minimum ${formatRupees(MIN_DEPOSIT)}`}>
            {(props) => (
              <TextInput {...props} inputMode="decimal" placeholder="Enter amount" value={amount} onChange={(e) => deposit.send({ type: "field.change", field: "amount", value: e.target.value })} />
            )}
          </Field>
          {/* A quick amount sets the amount (SPEC: quick amounts 500, 1000, 5000, 10000), so it reads as one, not as "+500". */}
          <div className="flex flex-wrap gap-2" role="group" aria-label="Quick amounts">
            {DEPOSIT_QUICK_AMOUNTS.map((quick) => (
              <button key={quick} type="button" aria-pressed={amount === String(quick)} className={`chip ${amount === String(quick) ? "border-brand text-brand" : ""}`} onClick={() => deposit.send({ type: "amount.quick", amount: quick })}>
                {wholeAmount(quick)}
              </button>
            ))}
          </div>
          <Field label="Transaction reference (UTR)" hint={upi ? "The 12-digit UTR from your payment app, or upload a screenshot of the payment" : "The UTR of your transfer (12 digits for IMPS), or upload a screenshot of the payment"}>
            {(props) => <TextInput {...props} inputMode={upi ? "numeric" : "text"} placeholder={upi ? "e.g. 412345678901" : "e.g. HDFCN52024061712345"} value={txnRef} onChange={(e) => deposit.send({ type: "field.change", field: "txnRef", value: e.target.value })} />}
          </Field>
          <div className="flex flex-wrap items-center gap-2">
            <label className="btn-ghost cursor-pointer py-1.5">
              <Icon name="upload" size={16} /> {screenshot ? "Change screenshot" : "Upload screenshot"}
              <input
                type="file"
                accept="image/png,image/jpeg,image/webp"
                className="sr-only"
                data-testid="screenshot-input"
                onChange={(event) => {
                  const file = event.target.files?.[0]
                  event.target.value = ""
                  if (file) void readFile(file).then((shot) => deposit.send({ type: "screenshot.select", screenshot: shot }))
                }}
              />
            </label>
            {screenshot ? (
              <>
                <button type="button" className="btn-ghost py-1.5" onClick={() => deposit.send({ type: "screenshot.view" })}>
                  <Icon name="eye" size={16} /> View
                </button>
                <button type="button" className="btn-ghost py-1.5" aria-label="Remove screenshot" onClick={() => deposit.send({ type: "screenshot.clear" })}>
                  <Icon name="close" size={16} />
                </button>
                <span className="max-w-40 truncate text-xs text-muted" data-testid="screenshot-name">{screenshot.name}</span>
              </>
            ) : null}
          </div>
          <button type="submit" className="btn-brand" disabled={busy || offline}>{busy ? "Submitting…" : "Confirm"}</button>
        </form>
      </Dialog>
      <ScreenshotViewer open={viewing} image={screenshot?.dataUrl} name={screenshot?.name} onClose={() => deposit.send({ type: "viewer.close" })} />
    </>
  )
}
