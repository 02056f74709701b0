/**
 * The desk's rules for what staff do to a player (docs/backoffice.md): the
 * server applies them to every request, the desk checks them before sending.
 */
import { toPaise } from "./money.ts"

/** The largest manual adjustment in one transaction: ₹10,00,000. */
export const MAX_ADJUSTMENT_PAISE = 10_00_000_00

export const noteProblem = (body: string) =>
  body.trim() === "" ? "Write the note first." : body.trim().length > 2000 ? "A note is at most 2,000 characters." : undefined

export const statusProblem = (reason: string) => (reason.trim() === "" ? "Say why." : undefined)

/** An adjustment's amount in paise, or what is wrong with it and its reason. */
export const adjustmentOf = (amount: number, reason: string): { readonly paise: number } | { readonly problem: string } => {
  const paise = Number.isFinite(amount) && amount > 0 ? toPaise(amount) : undefined
  if (paise === undefined || paise <= 0) return { problem: "Enter an amount in rupees, at most two decimals." }
  if (paise > MAX_ADJUSTMENT_PAISE) return { problem: "An adjustment is at most ₹10,00,000." }
  if (reason.trim() === "") return { problem: "Give the reason: the player's statement shows it." }
  return { paise }
}
