import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import type { payoutAccountsMachine } from "../../../machines/payoutAccounts.machine.ts"
import { Dialog } from "../../widgets/Dialog.tsx"
import { Field, TextInput } from "../../widgets/Form.tsx"

export type PayoutAccountsRef = ActorRefFrom<typeof payoutAccountsMachine>

const TITLES = { upi: { add: "Add UPI", edit: "Edit UPI" }, bank: { add: "Add Bank Account", edit: "Edit Bank Account" } } as const

/**
 * Add UPI, Edit UPI, Add Bank Account, Edit Bank Account (SPEC section 2),
 * over the payoutAccounts machine: the fields are its context, the rules and
 * the save are its own.
 */
export const AccountModal = ({ accounts }: { accounts: PayoutAccountsRef }) => {
  const open = useSelector(accounts, (s) => s.hasTag("open"))
  const form = useSelector(accounts, (s) => s.context.form)
  const mode = useSelector(accounts, (s) => (s.context.editing === undefined ? "add" : "edit"))
  const busy = useSelector(accounts, (s) => s.hasTag("busy"))
  if (!open) return null
  const field = (name: "accountNumber" | "accountHolderName" | "bankName" | "ifscCode" | "accountType") => ({
    value: form[name] ?? "",
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => accounts.send({ type: "field.change", field: name, value: e.target.value })
  })
  return (
    <Dialog open title={TITLES[form.type][mode]} onClose={() => accounts.send({ type: "modal.close" })} testId="account-modal">
      <form
        className="flex flex-col gap-3"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          accounts.send({ type: "account.save" })
        }}
      >
        {form.type === "upi" ? (
          <>
            <Field label="UPI ID">{(p) => <TextInput {...p} placeholder="name@bank" autoComplete="off" {...field("accountNumber")} />}</Field>
            <Field label="Account Holder Name">{(p) => <TextInput {...p} autoComplete="name" {...field("accountHolderName")} />}</Field>
          </>
        ) : (
          <>
            <Field label="Account Holder Name">{(p) => <TextInput {...p} autoComplete="name" {...field("accountHolderName")} />}</Field>
            <Field label="Bank Name">{(p) => <TextInput {...p} {...field("bankName")} />}</Field>
            <Field label="Account Number">{(p) => <TextInput {...p} inputMode="numeric" autoComplete="off" {...field("accountNumber")} />}</Field>
            <Field label="IFSC Code" hint="11 characters, e.g. SBIN0001234">{(p) => <TextInput {...p} autoComplete="off" maxLength={11} {...field("ifscCode")} />}</Field>
            <Field label="Account Type">
              {(p) => (
                <select {...p} className="field" {...field("accountType")}>
                  <option value="savings">Savings</option>
                  <option value="current">Current</option>
                </select>
              )}
            </Field>
          </>
        )}
        <button type="submit" className="btn-brand" disabled={busy}>{busy ? "Saving…" : mode === "add" ? "Add" : "Update"}</button>
      </form>
    </Dialog>
  )
}
