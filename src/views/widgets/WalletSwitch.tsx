import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import type { walletMachine } from "../../machines/wallet.machine.ts"
import type { WalletCode } from "../../schema/user.ts"
import { useSession } from "../session.ts"

const OPTIONS: ReadonlyArray<readonly [WalletCode, string]> = [
  [1, "Main"],
  [2, "Bonus"]
]

/**
 * Which wallet bets come from: main balance (1) or bonus wallet (2). Picking
 * the other one asks the server and shows 'Wallet Changed'; picking the
 * active one does nothing. The wallet machine is the session's (system id
 * `wallet`), so the header and the Bonus page show one switch. Not for credit
 * players (they have no bonus wallet).
 */
export const WalletSwitch = ({ wideOnly = false }: { /** In the header: only on screens wide enough for it beside the balances (the Bonus page always has it). */ wideOnly?: boolean }) => {
  const wallet = useSession((s) => s.children.wallet)
  return wallet ? <Switch wallet={wallet} wideOnly={wideOnly} /> : null
}

const Switch = ({ wallet, wideOnly }: { wallet: ActorRefFrom<typeof walletMachine>; wideOnly: boolean }) => {
  const current = useSelector(wallet, (s) => s.context.wallet)
  const busy = useSelector(wallet, (s) => s.hasTag("busy"))
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
