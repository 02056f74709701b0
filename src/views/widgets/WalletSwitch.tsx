import { useActorRef, useSelector } from "@xstate/react"
import { useEffect } from "react"
import { walletMachine } from "../../machines/wallet.machine.ts"
import type { User, WalletCode } from "../../schema/user.ts"
import { useSessionRef } from "../session.ts"

const OPTIONS: ReadonlyArray<readonly [WalletCode, string]> = [
  [1, "Main"],
  [2, "Bonus"]
]

/**
 * Which wallet bets come from: main balance (1) or bonus wallet (2). Picking
 * the other one asks the server and shows 'Wallet Changed'; picking the
 * active one does nothing. Not for credit players (they have no bonus wallet).
 */
export const WalletSwitch = ({ user, wideOnly = false }: { user: User; /** In the header: only on screens wide enough for it beside the balances (the Bonus page always has it). */ wideOnly?: boolean }) => {
  const session = useSessionRef()
  const wallet = useActorRef(walletMachine.provide({ actions: { userChanged: () => session.send({ type: "user.changed" }) } }), { input: { wallet: user.wallet } })
  const current = useSelector(wallet, (s) => s.context.wallet)
  const busy = useSelector(wallet, (s) => s.hasTag("busy"))
  useEffect(() => wallet.send({ type: "wallet.sync", wallet: user.wallet }), [user.wallet, wallet])
  return (
    <div role="radiogroup" aria-label="Play from wallet" aria-busy={busy} className={`${wideOnly ? "hidden min-[1440px]:flex" : "flex"} rounded-full border border-line bg-bg p-0.5 text-xs`} data-testid="wallet-switch">
      {OPTIONS.map(([code, label]) => (
        <button
          key={code}
          type="button"
          role="radio"
          aria-checked={current === code}
          disabled={busy}
          onClick={() => wallet.send({ type: "wallet.switch", wallet: code })}
          className={`rounded-full px-2.5 py-1 font-700 ${current === code ? "bg-brand text-brand-fg" : "text-muted hover:text-fg"}`}
        >
          {label}
        </button>
      ))}
    </div>
  )
}
