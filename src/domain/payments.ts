/**
 * The payment rules of SPEC sections 5 and 9, with their exact messages. The
 * client checks them before sending; the server checks them again for any caller.
 */
import type { AccountKind, BankAccountType, DepositPayload } from "../schema/payments.ts"
import { SCREENSHOT_MAX_BYTES } from "../schema/payments.ts"
import { amountInput, toPaise } from "./money.ts"

export const MIN_DEPOSIT = 100
export const MAX_DEPOSIT = 10_00_000
export const MIN_WITHDRAWAL = 100
export const DEPOSIT_QUICK_AMOUNTS: ReadonlyArray<number> = [500, 1000, 5000, 10000]

export const PAYMENT_MESSAGES = {
  enterAmount: "Please enter amount",
  minDeposit: `Min Deposit amount is ${MIN_DEPOSIT}`,
  maxDeposit: `Max Deposit amount is ${MAX_DEPOSIT}`,
  referenceOrScreenshot: "Please provide reference-id or upload a screenshot.",
  fillAll: "Please fill all Fields",
  badAmount: "Amounts can have at most two decimals",
  minWithdrawal: `Min Withdrawal amount is ${MIN_WITHDRAWAL}`,
  chooseAccount: "Please choose an account to withdraw to",
  insufficient: "Insufficient balance: the amount is more than you can withdraw",
  badIfsc: "IFSC code must look like SBIN0001234 (4 letters, 0, then 6 letters or digits)",
  badUpi: "UPI id must look like name@bank",
  badAccountNumber: "Account number must be 6 to 18 digits",
  badUpiReference: "The UPI reference (UTR) is the 12-digit number in your payment app's transaction details",
  badBankReference: "The bank reference (UTR) is 12 digits (IMPS) or 16 to 22 letters and digits (NEFT, RTGS)",
  referenceUsed: "This reference (UTR) is already on another deposit: each payment can be claimed once. Please check the number in your payment app."
} as const

/** The amount field as typed: a number, or the first rule it breaks. */
export const parseAmount = (input: string | number): number | string => {
  const text = String(input).trim()
  if (text === "") return PAYMENT_MESSAGES.enterAmount
  const amount = Number(text)
  if (!Number.isFinite(amount) || amount <= 0) return PAYMENT_MESSAGES.enterAmount
  if (toPaise(amount) === undefined) return PAYMENT_MESSAGES.badAmount
  return amount
}

/** A payment reference (UTR) as it is kept and compared: without spaces, letters in upper case. */
export const normalizeReference = (ref: string) => ref.replace(/\s+/g, "").toUpperCase()

/**
 * What is wrong with a payment reference, if anything. A UPI payment's UTR
 * (the RRN the payment app shows) is 12 digits; a bank transfer's is 12
 * digits (IMPS) or a NEFT or RTGS UTR of 16 to 22 letters and digits.
 */
export const referenceProblem = (type: AccountKind, ref: string) => {
  const normalized = normalizeReference(ref)
  if (type === "upi") return /^\d{12}$/.test(normalized) ? undefined : PAYMENT_MESSAGES.badUpiReference
  return /^\d{12}$/.test(normalized) || /^[A-Z0-9]{16,22}$/.test(normalized) ? undefined : PAYMENT_MESSAGES.badBankReference
}

/**
 * The references one slip away from `ref` (normalised): one digit changed,
 * or two neighbouring characters swapped. Another deposit with one of them is
 * worth the operator's look: a typo, or the same payment claimed twice.
 */
export const nearReferences = (ref: string): Array<string> => {
  const near = new Set<string>()
  for (let i = 0; i < ref.length; i++) {
    if (/\d/.test(ref[i]!)) {
      for (const digit of "0123456789") if (digit !== ref[i]) near.add(ref.slice(0, i) + digit + ref.slice(i + 1))
    }
    if (i + 1 < ref.length && ref[i] !== ref[i + 1]) near.add(ref.slice(0, i) + ref[i + 1] + ref[i] + ref.slice(i + 2))
  }
  near.delete(ref)
  return [...near]
}

/** Deposit modal: amount, then a reference or a screenshot (in this order, one message at a time), then the reference's shape. */
export const validateDeposit = (input: { amount: string | number; txnRef: string; hasScreenshot: boolean; type: AccountKind }) => {
  const amount = parseAmount(input.amount)
  if (typeof amount === "string") return amount
  if (amount < MIN_DEPOSIT) return PAYMENT_MESSAGES.minDeposit
  if (amount > MAX_DEPOSIT) return PAYMENT_MESSAGES.maxDeposit
  if (input.txnRef.trim() === "" && !input.hasScreenshot) return PAYMENT_MESSAGES.referenceOrScreenshot
  if (input.txnRef.trim() !== "") return referenceProblem(input.type, input.txnRef)
  return undefined
}

/** The deposit form's fields, as `field.change` names them; the amount and the reference are kept as typed. */
export interface DepositForm {
  readonly amount: string
  readonly txnRef: string
}

/** A payment screenshot the player picked: the file read as a data URL, with what the checks need. */
export interface PickedScreenshot {
  readonly dataUrl: string
  readonly name: string
  readonly type: string
  readonly size: number
}

export const SCREENSHOT_TYPES: ReadonlyArray<string> = ["image/png", "image/jpeg", "image/webp"]
export const SCREENSHOT_MESSAGES = {
  type: "Please upload a PNG, JPEG or WebP image.",
  size: "The screenshot must be at most 5 MB."
} as const

/** What is wrong with a picked file, if anything (the server checks the content again). */
export const screenshotProblem = (file: { readonly type: string; readonly size: number }) =>
  !SCREENSHOT_TYPES.includes(file.type) ? SCREENSHOT_MESSAGES.type : file.size > SCREENSHOT_MAX_BYTES ? SCREENSHOT_MESSAGES.size : undefined

/** A typed value as the deposit form keeps it: the amount as digits and a point, the reference at most 64 characters. */
export const depositFieldValue = (field: keyof DepositForm, value: string): Partial<DepositForm> =>
  field === "amount" ? { amount: amountInput(value) } : { txnRef: value.slice(0, 64) }

/**
 * The deposit as POST /admin-deposit-request is sent (SPEC sections 3 and 7):
 * `txnRef` always, empty when only a screenshot proves the payment; the
 * screenshot as `baseImage` from the UPI modal, as `screenshot` from the bank modal.
 */
export const depositPayload = (
  account: { readonly _id: string; readonly type: AccountKind },
  form: DepositForm,
  screenshot: string | undefined
): DepositPayload & { readonly txnRef: string } => ({
  amount: Number(form.amount),
  accountId: account._id,
  type: account.type,
  txnRef: form.txnRef.trim(),
  ...(screenshot === undefined ? {} : account.type === "upi" ? { baseImage: screenshot } : { screenshot })
})

export const validateWithdrawal = (input: { amount: string | number; accountId: string | undefined }) => {
  const amount = parseAmount(input.amount)
  if (typeof amount === "string") return amount
  if (amount < MIN_WITHDRAWAL) return PAYMENT_MESSAGES.minWithdrawal
  if (!input.accountId) return PAYMENT_MESSAGES.chooseAccount
  return undefined
}

/** IFSC: 4 letters (the bank), a 0, then 6 letters or digits (the branch). */
export const isIfsc = (code: string) => /^[A-Z]{4}0[A-Z0-9]{6}$/.test(code.trim().toUpperCase())

/** UPI id (VPA): a handle, @, a provider; e.g. ravi.kumar@okhdfcbank. */
export const isUpiId = (id: string) => /^[a-zA-Z0-9._-]{2,64}@[a-zA-Z][a-zA-Z0-9.-]{1,63}$/.test(id.trim())

export const isBankAccountNumber = (number: string) => /^\d{6,18}$/.test(number.trim())

export interface AccountForm {
  readonly type: "upi" | "bank"
  readonly accountNumber: string
  readonly accountHolderName: string
  readonly bankName?: string | undefined
  readonly ifscCode?: string | undefined
  readonly accountType?: "savings" | "current" | undefined
}

const blank = (value: string | undefined) => value === undefined || value.trim() === ""

/** Add/Edit UPI and Add/Edit Bank Account: every field required, then the shapes. */
export const validateAccount = (input: AccountForm) => {
  if (input.type === "upi") {
    if (blank(input.accountNumber) || blank(input.accountHolderName)) return PAYMENT_MESSAGES.fillAll
    if (!isUpiId(input.accountNumber)) return PAYMENT_MESSAGES.badUpi
    return undefined
  }
  if ([input.accountHolderName, input.bankName, input.accountNumber, input.ifscCode, input.accountType].some(blank)) return PAYMENT_MESSAGES.fillAll
  if (!isBankAccountNumber(input.accountNumber)) return PAYMENT_MESSAGES.badAccountNumber
  if (!isIfsc(input.ifscCode!)) return PAYMENT_MESSAGES.badIfsc
  return undefined
}

/** The fields of the account form, as `field.change` names them. */
export type AccountField = "accountNumber" | "accountHolderName" | "bankName" | "ifscCode" | "accountType"

/** An empty form of one kind; a bank account is a savings account unless the player says otherwise. */
export const blankAccountForm = (type: "upi" | "bank"): AccountForm => ({
  type,
  accountNumber: "",
  accountHolderName: "",
  bankName: "",
  ifscCode: "",
  accountType: "savings"
})

/** A typed value as the form keeps it: bank account numbers are digits, IFSC codes upper case. */
export const accountFieldValue = (form: AccountForm, field: AccountField, value: string): Partial<AccountForm> => {
  switch (field) {
    case "accountNumber":
      return { accountNumber: form.type === "bank" ? value.replace(/\D/g, "").slice(0, 18) : value.slice(0, 64) }
    case "ifscCode":
      return { ifscCode: value.toUpperCase().slice(0, 11) }
    case "accountType":
      return { accountType: value === "current" ? "current" : "savings" }
    case "accountHolderName":
      return { accountHolderName: value.slice(0, 80) }
    case "bankName":
      return { bankName: value.slice(0, 80) }
  }
}

/** What the server is sent for a valid form (SPEC section 7): trimmed, the bank fields only for a bank account. */
export const accountPayload = (form: AccountForm) => ({
  type: form.type,
  accountNumber: form.accountNumber.trim(),
  accountHolderName: form.accountHolderName.trim(),
  ...(form.type === "bank"
    ? { bankName: (form.bankName ?? "").trim(), ifscCode: (form.ifscCode ?? "").trim().toUpperCase(), accountType: form.accountType ?? "savings" }
    : {})
})

/** "XXXXXX1234": enough to recognise an account without showing it whole. */
export const maskAccount = (number: string) => (number.length <= 4 ? number : `${"X".repeat(Math.min(number.length - 4, 8))}${number.slice(-4)}`)

/** How an account type reads on screen (stored lowercase, as the spec names them). */
export const ACCOUNT_TYPE_LABEL: Readonly<Record<BankAccountType, string>> = { savings: "Savings", current: "Current" }

/** What a UPI app shows the player as the payment's note. */
export const UPI_NOTE = "Khel deposit"

/**
 * "Pay with a UPI app": the NPCI deep link (`upi://pay?pa=…&pn=…&am=…&cu=INR&tn=…`) that Android hands to GPay,
 * PhonePe, Paytm or any UPI app, filled with the operator's UPI id and name and, once it is a valid deposit, the
 * amount typed (a player cannot scan a QR on their own screen). The id keeps its "@": some apps do not decode it.
 */
export const upiPayUrl = (account: { readonly accountNumber: string; readonly accountHolderName: string }, amount: string) => {
  const typed = parseAmount(amount)
  const params: Array<readonly [string, string]> = [
    ["pa", account.accountNumber.trim()],
    ["pn", account.accountHolderName.trim()],
    ...(typeof typed === "number" && typed >= MIN_DEPOSIT && typed <= MAX_DEPOSIT ? [["am", typed.toFixed(2)] as const] : []),
    ["cu", "INR"],
    ["tn", UPI_NOTE]
  ]
  return `upi://pay?${params.map(([key, value]) => `${key}=${encodeURIComponent(value).replace(/%40/g, "@")}`).join("&")}`
}
