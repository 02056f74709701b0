/**
 * Money on the wire is rupees with at most two decimals; in the database it
 * is integer paise. These helpers are the only place the two meet.
 */

export const PAISE_PER_RUPEE = 100

/** Whole paise of a rupee amount, or undefined when it has more than two decimals or is not finite. */
export const toPaise = (rupees: number): number | undefined => {
  if (!Number.isFinite(rupees)) return undefined
  const paise = Math.round(rupees * PAISE_PER_RUPEE)
  // Two decimals exactly: the paise divided back give the very same number.
  return Number.isSafeInteger(paise) && paise / PAISE_PER_RUPEE === rupees ? paise : undefined
}

export const toRupees = (paise: number | bigint): number => Number(paise) / PAISE_PER_RUPEE

/** Sum rupee amounts without drifting: add as paise. */
export const addRupees = (...amounts: ReadonlyArray<number>): number =>
  toRupees(amounts.reduce((sum, amount) => sum + Math.round(amount * PAISE_PER_RUPEE), 0))

/** An amount field as typed (a stake, a deposit, a withdrawal): digits and decimal points only, at most 12 characters; the rules then judge it. */
export const amountInput = (value: string) => value.replace(/[^\d.]/g, "").slice(0, 12)

// Made on first use: building an Intl formatter loads its locale data, too slow for the first chunk's evaluation.
let grouping: Intl.NumberFormat | undefined
let wholeGrouping: Intl.NumberFormat | undefined

/**
 * The one money formatter: "1,23,456.70", Indian digit grouping and always two decimals, wherever the site shows
 * an amount (header, slip, P/L, tables, messages). A negative amount keeps its minus; one that rounds to zero
 * shows as "0.00", never "-0.00".
 */
export const formatAmount = (rupees: number) =>
  (grouping ??= new Intl.NumberFormat("en-IN", { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: "negative" })).format(rupees)

/** "₹1,23,456.70", "−₹500.00": an amount with the rupee sign (the minus before it). */
export const formatRupees = (rupees: number) => {
  const text = formatAmount(Math.abs(rupees))
  return rupees < 0 && text !== "0.00" ? `−₹${text}` : `₹${text}`
}

/** "+1,234.00", "−500.00", "0.00": a change of money (P/L, a statement's net), its direction always written. */
export const formatSigned = (rupees: number) => {
  const text = formatAmount(Math.abs(rupees))
  return text === "0.00" ? text : `${rupees < 0 ? "−" : "+"}${text}`
}

/** Two decimals without grouping: what a form field holds (an amount typed back), and the operator's CLI tables. */
export const fixed2 = (value: number) => (Math.round(value * 100) / 100).toFixed(2)

/** Whole rupees grouped the Indian way, for buttons that name a round amount: 10000 -> "10,000". */
export const wholeAmount = (rupees: number) => (wholeGrouping ??= new Intl.NumberFormat("en-IN", { maximumFractionDigits: 0 })).format(rupees)

/** Chip labels: 100 -> "100", 1000 -> "1,000", 10000 -> "10k", 100000 -> "100k". */
export const chipLabel = (amount: number) => (amount >= 10_000 ? `${amount / 1000}k` : wholeAmount(amount))

export const DEFAULT_CHIPS: ReadonlyArray<number> = [100, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000]
