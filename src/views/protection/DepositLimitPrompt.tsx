import { useSelector } from "@xstate/react"
import { Link } from "react-router"
import { formatRupees } from "../../domain/money.ts"
import { PERIOD_LABEL } from "../../domain/protection.ts"
import { useProtection } from "./useProtection.ts"

/**
 * On the deposit page (RTS 12: offered no later than the first deposit): a
 * player with no deposit limit is asked to set one; one with limits sees
 * what is left under each. Either way the limits are one click away.
 */
export const DepositLimitPrompt = () => {
  const protection = useProtection()
  if (!protection) return null
  return <Prompt protection={protection} />
}

const Prompt = ({ protection }: { protection: NonNullable<ReturnType<typeof useProtection>> }) => {
  const limits = useSelector(protection, (s) => s.context.protection?.limits.filter((l) => l.kind === "deposit" && l.amount !== null))
  const closed = useSelector(protection, (s) => s.context.protection?.closed)
  if (!limits) return null
  return (
    <aside aria-label="Deposit limits" className="card flex flex-wrap items-center justify-between gap-3 p-4" data-testid="deposit-limit-prompt">
      {closed ? <p role="status" className="m-0 w-full font-600">{closed.message}</p> : null}
      {limits.length === 0 ? (
        <p className="m-0 text-sm">
          <strong>Set a deposit limit.</strong> Decide how much you can afford to deposit in 24 hours, 7 days or 30 days; we hold you to it.
        </p>
      ) : (
        <ul className="m-0 flex list-none flex-col gap-0.5 p-0 text-sm">
          {limits.map((l) => (
            <li key={l.period}>
              {PERIOD_LABEL[l.period]} deposit limit {formatRupees(l.amount ?? 0)}: <strong>{formatRupees(l.remaining ?? 0)}</strong> left
            </li>
          ))}
        </ul>
      )}
      <Link to="/responsible-gambling#limits" className="btn-ghost py-1.5">{limits.length === 0 ? "Set a deposit limit" : "Change your limits"}</Link>
    </aside>
  )
}
