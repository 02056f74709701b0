import type { Bonus as BonusRow, BonusStatus } from "../../schema/bonus.ts"
import type { User } from "../../schema/user.ts"
import { WalletSwitch } from "../widgets/WalletSwitch.tsx"
import { calls, idempotencyKey } from "../payments/calls.ts"
import { useAction, useResource } from "../payments/hooks.ts"
import { PlayerPage, rupees, StatusBadge, when } from "../payments/ui.tsx"

const EXPLAIN: Record<BonusStatus, string> = {
  available: "Activate it to put it in your bonus wallet.",
  active: "In your bonus wallet. Settled bets count towards the wagering; claim it once the wagering is met.",
  completed: "Wagering met: claim it to move your bonus wallet to your main balance.",
  claimed: "Moved to your main balance.",
  forfeited: "Given up: it left your bonus wallet."
}

const BonusCard = ({ bonus, busy, onAction }: { bonus: BonusRow; busy: boolean; onAction: (action: "activate" | "claim" | "forfeit") => void }) => {
  const progress = bonus.wageringRequired === 0 ? 100 : Math.min(100, Math.round((bonus.wagered / bonus.wageringRequired) * 100))
  const live = bonus.status === "available" || bonus.status === "active" || bonus.status === "completed"
  return (
    <article className="card flex flex-col gap-3 p-4" data-testid="bonus-card" aria-label={bonus.title}>
      <header className="flex items-start justify-between gap-2">
        <div>
          <h3 className="m-0 text-base font-700">{bonus.title}</h3>
          <p className="m-0 text-xs text-muted">{bonus.code} · offered {when(bonus.createdAt)}</p>
        </div>
        <StatusBadge status={bonus.status} />
      </header>
      <p className="m-0 text-2xl font-800 text-brand">{rupees(bonus.amount)}</p>
      <div>
        <div className="flex justify-between text-xs text-muted">
          <span>Wagered {rupees(bonus.wagered)} of {rupees(bonus.wageringRequired)}</span>
          <span>{progress}%</span>
        </div>
        <div className="mt-1 h-2 overflow-hidden rounded-full bg-raised" role="progressbar" aria-label="Wagering" aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress}>
          <div className="h-full bg-brand" style={{ width: `${progress}%` }} />
        </div>
      </div>
      <p className="m-0 text-sm text-muted">{EXPLAIN[bonus.status]}</p>
      {live ? (
        <div className="flex flex-wrap gap-2">
          {bonus.status === "available" ? <button type="button" className="btn-brand" disabled={busy} onClick={() => onAction("activate")}>Activate</button> : null}
          {bonus.status !== "available" ? (
            <button type="button" className="btn-brand" disabled={busy || bonus.status !== "completed"} onClick={() => onAction("claim")}>Claim</button>
          ) : null}
          <button
            type="button"
            className="btn-ghost"
            disabled={busy}
            onClick={() => {
              if (window.confirm("Forfeit this bonus? What is in your bonus wallet will be removed.")) onAction("forfeit")
            }}
          >
            Forfeit
          </button>
        </div>
      ) : null}
    </article>
  )
}

const BonusBody = ({ user }: { user: User }) => {
  const bonus = useResource(() => calls.bonusData, null)
  const { busy, run } = useAction()
  const act = (id: string, action: "activate" | "claim" | "forfeit") =>
    run(`${action}:${id}`, () => calls.bonusAction(action, id, idempotencyKey(`bonus-${action}`)), bonus.reload)
  const list = bonus.data?.bonuses ?? []
  return (
    <>
      <div className="card flex flex-wrap items-center justify-between gap-3 p-4">
        <span className="flex flex-col">
          <span className="text-muted">Bonus wallet</span>
          <strong className="text-xl" data-testid="bonus-wallet">{rupees(bonus.data?.bonusBalance ?? 0)}</strong>
        </span>
        <span className="flex items-center gap-2 text-xs text-muted">Play from <WalletSwitch /></span>
      </div>
      {bonus.data && list.length === 0 ? (
        <p className="card m-0 p-6 text-center text-muted">No bonus yet. Your first approved deposit brings a 100% welcome bonus, up to ₹10,000.</p>
      ) : null}
      <div className="grid gap-3 md:grid-cols-2">
        {list.map((b) => <BonusCard key={b._id} bonus={b} busy={busy !== undefined} onAction={(action) => act(b._id, action)} />)}
      </div>
    </>
  )
}

const Bonus = () => <PlayerPage section="bonus" title="Bonus">{(user) => <BonusBody user={user} />}</PlayerPage>

export default Bonus
