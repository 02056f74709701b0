import { useEffect, useState } from "react"
import { type AccountForm, validateAccount } from "../../../domain/payments.ts"
import type { BankAccountType, PaymentAccount } from "../../../schema/payments.ts"
import { run } from "../../../services/runtime.ts"
import { Notices } from "../../../services/notices.ts"
import { calls } from "../../payments/calls.ts"
import { useAction } from "../../payments/hooks.ts"
import { Dialog } from "../../widgets/Dialog.tsx"
import { Field, TextInput } from "../../widgets/Form.tsx"

export type AccountModalState =
  | { readonly mode: "add"; readonly type: "upi" | "bank" }
  | { readonly mode: "edit"; readonly account: PaymentAccount }
  | undefined

const TITLES = { upi: { add: "Add UPI", edit: "Edit UPI" }, bank: { add: "Add Bank Account", edit: "Edit Bank Account" } } as const

const blankForm = (type: "upi" | "bank"): AccountForm => ({ type, accountNumber: "", accountHolderName: "", bankName: "", ifscCode: "", accountType: "savings" })

/**
 * Add UPI, Edit UPI, Add Bank Account, Edit Bank Account (SPEC section 2):
 * every field required ('Please fill all Fields'), IFSC and UPI id checked
 * for shape; the server's message shows as the toast.
 */
export const AccountModal = ({ state, onClose, onSaved }: { state: AccountModalState; onClose: () => void; onSaved: () => void }) => {
  const type = state ? (state.mode === "add" ? state.type : state.account.type) : "upi"
  const [form, setForm] = useState<AccountForm>(blankForm(type))
  const { busy, run: act } = useAction()
  useEffect(() => {
    if (!state) return
    setForm(state.mode === "add" ? blankForm(state.type) : { ...blankForm(state.account.type), ...state.account })
  }, [state])
  if (!state) return null
  const title = TITLES[type][state.mode]
  const set = (patch: Partial<AccountForm>) => setForm((f) => ({ ...f, ...patch }))
  const submit = () => {
    const problem = validateAccount(form)
    if (problem) return void run(Notices.use((n) => n.warning(problem)))
    const payload = {
      type,
      accountNumber: form.accountNumber.trim(),
      accountHolderName: form.accountHolderName.trim(),
      ...(type === "bank" ? { bankName: form.bankName!.trim(), ifscCode: form.ifscCode!.trim().toUpperCase(), accountType: form.accountType ?? "savings" } : {})
    } as const
    // On failure the Api service shows the server's message and the form stays open.
    act(
      "save",
      () => (state.mode === "add" ? calls.addAccount(payload) : calls.updateAccount({ ...payload, accountId: state.account._id })),
      () => {
        onSaved()
        onClose()
      }
    )
  }
  return (
    <Dialog open title={title} onClose={onClose} testId="account-modal">
      <form
        className="flex flex-col gap-3"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          void submit()
        }}
      >
        {type === "upi" ? (
          <>
            <Field label="UPI ID">{(p) => <TextInput {...p} placeholder="name@bank" autoComplete="off" value={form.accountNumber} onChange={(e) => set({ accountNumber: e.target.value })} />}</Field>
            <Field label="Account Holder Name">{(p) => <TextInput {...p} autoComplete="name" value={form.accountHolderName} onChange={(e) => set({ accountHolderName: e.target.value })} />}</Field>
          </>
        ) : (
          <>
            <Field label="Account Holder Name">{(p) => <TextInput {...p} autoComplete="name" value={form.accountHolderName} onChange={(e) => set({ accountHolderName: e.target.value })} />}</Field>
            <Field label="Bank Name">{(p) => <TextInput {...p} value={form.bankName ?? ""} onChange={(e) => set({ bankName: e.target.value })} />}</Field>
            <Field label="Account Number">{(p) => <TextInput {...p} inputMode="numeric" autoComplete="off" value={form.accountNumber} onChange={(e) => set({ accountNumber: e.target.value.replace(/\D/g, "").slice(0, 18) })} />}</Field>
            <Field label="IFSC Code" hint="11 characters, e.g. SBIN0001234">{(p) => <TextInput {...p} autoComplete="off" maxLength={11} value={form.ifscCode ?? ""} onChange={(e) => set({ ifscCode: e.target.value.toUpperCase() })} />}</Field>
            <Field label="Account Type">
              {(p) => (
                <select {...p} className="field" value={form.accountType ?? "savings"} onChange={(e) => set({ accountType: e.target.value as BankAccountType })}>
                  <option value="savings">Savings</option>
                  <option value="current">Current</option>
                </select>
              )}
            </Field>
          </>
        )}
        <button type="submit" className="btn-brand" disabled={busy !== undefined}>{busy ? "Saving…" : state.mode === "add" ? "Add" : "Update"}</button>
      </form>
    </Dialog>
  )
}
