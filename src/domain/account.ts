import { Roles } from "../schema/roles.ts"
import type { User } from "../schema/user.ts"

/**
 * The player's account as the site shows it (SPEC sections 6 and 9): one
 * place for the credit-player rule and the balance lines.
 */

/** Credit players (role 104) bet on credit: no deposits, withdrawals, bonus wallet or referrals. */
export const isCreditPlayer = (user: Pick<User, "role">) => user.role === Roles.CREDIT_PLAYER

/** What the player can use now: the balance less what open bets hold (exposure is negative). */
export const availableBalance = (user: Pick<User, "balance" | "exposure">) => user.balance + user.exposure

/**
 * The header's balance block: Balance = balance + exposure, Exposure as an
 * absolute value, then Bonus and Ref. Bonus, or Credit Ref. for a credit player.
 */
export const balanceLines = (user: User): ReadonlyArray<readonly [label: string, value: number]> => [
  ["Balance", availableBalance(user)],
  ["Exposure", Math.abs(user.exposure)],
  ...(isCreditPlayer(user)
    ? [["Credit Ref.", user.creditReference] as const]
    : [["Bonus", user.bonus] as const, ["Ref. Bonus", user.refBonus] as const])
]
