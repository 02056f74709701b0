import type { User } from "../../src/schema/user.ts"

export const player: User = {
  id: "u1", name: "Ravi", username: "ravi1234", mobileNo: "+919876543210", role: 4, wallet: 1,
  balance: 100, exposure: 0, bonus: 0, refBonus: 0, creditReference: 0, referralCode: "ABCDEFGH", bets: []
}
