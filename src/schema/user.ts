import { Schema } from "effect"
import { Roles } from "./roles.ts"

export { Roles }

export const Role = Schema.Literals(Object.values(Roles))
export type Role = typeof Role.Type

/** Roles that act for the operator (everything that is not a player). */
export const isOperatorRole = (role: Role) => role !== Roles.PLAYER && role !== Roles.CREDIT_PLAYER

/** Wallet 1 is the main balance, wallet 2 the bonus wallet. */
export const WalletCode = Schema.Literals([1, 2])
export type WalletCode = typeof WalletCode.Type

/** Rupee amounts travel as numbers with at most two decimals; the server keeps integer paise. */
export const Rupees = Schema.Finite

export const User = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  username: Schema.String,
  mobileNo: Schema.String,
  role: Role,
  wallet: WalletCode,
  balance: Rupees,
  /** Negative: the most the player can still lose on open bets. */
  exposure: Rupees,
  bonus: Rupees,
  refBonus: Rupees,
  creditReference: Rupees,
  referralCode: Schema.String,
  /** Events the player has open bets on, so event pages can show "My Bets" markers. */
  bets: Schema.Array(Schema.Struct({ eventId: Schema.Struct({ _id: Schema.String }) }))
})
export type User = typeof User.Type
