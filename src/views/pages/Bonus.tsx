import { useSelector } from "@xstate/react"
import { canActOn, isLiveBonus, WAGERING_RULE, wageringProgress } from "../../domain/bonus.ts"
import { welcomeTermsText } from "../../domain/bonusRules.ts"
import { formatRupees } from "../../domain/money.ts"
import type { FlowRef } from "../../machines/flows.ts"
import type { Bonus as BonusRow, BonusStatus } from "../../schema/bonus.ts"
import type { User } from "../../schema/user.ts"
import { useFlow } from "../flows.ts"
import { PlayerPage, StatusBadge, when } from "../payments/ui.tsx"
import { Dialog } from "../widgets/Dialog.tsx"
import { WalletSwitch } from "../widgets/WalletSwitch.tsx"

type BonusRef = FlowRef<"bonus">

const EXPLAIN: Record<BonusStatus, string> = {
  available: "Activate it to put it in your bonus wallet.",
  active: "In your bonus wallet. What you risk on settled markets counts towards the wagering; claim it once the wagering is met.",
  completed: "Wagering met: claim it to move your bonus wallet to your main balance.",
  claimed: "Moved to your main balance.",
  forfeited: "Given up: it left your bonus wallet."
}

const BonusCard = ({ bonus, flow }: { bonus: BonusRow; flow: BonusRef }) => {
  const busy = useSelector(flow, (s) => s.hasTag("busy") || s.hasTag("confirming"))
  const progress = wageringProgress(bonus)
  return (
    <article className="card flex flex-col gap-3 p-4" data-testid="bonus-card" aria-label={bonus.title}>
      <header className="flex items-start justify-between gap-2">
        <div>
          <h3 className="m-0 text-base font-700">{bonus.title}</h3>
          <p className="m-0 text-xs text-muted">{bonus.code} · offered {when(bonus.createdAt)}</p>
        </div>
        <StatusBadge status={bonus.status} />
      </header>
      <p className="m-0 text-2xl font-800 text-brand">{formatRupees(bonus.amount)}</p>
      <div>
        <div className="flex justify-between text-xs text-muted">
          <span>Wagered {formatRupees(bonus.wagered)} of {formatRupees(bonus.wageringRequired)}</span>
          <span>{progress}%</span>
        </div>
        <div className="mt-1 h-2 overflow-hidden rounded-full bg-raised" role="progressbar" aria-label="Wagering" aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress}>
          <div className="h-full bg-brand" style={{ width: `${progress}%` }} />
        </div>
      </div>
      {bonus.status === "active" ? <p className="m-0 text-sm">{formatRupees(bonus.wageringLeft)} left to wager.</p> : null}
      <p className="m-0 text-sm text-muted">{EXPLAIN[bonus.status]}</p>
      {isLiveBonus(bonus.status) ? (
        <div className="flex flex-wrap gap-2">
          {canActOn("activate", bonus.status) ? (
            <button type="button" className="btn-brand" disabled={busy} onClick={() => flow.send({ type: "bonus.activate", bonusId: bonus._id })}>Activate</button>
          ) : (
            // Shown while the wagering runs, so the player sees where the claim will be.
            <button type="button" className="btn-brand" disabled={busy || !canActOn("claim", bonus.status)} onClick={() => flow.send({ type: "bonus.claim", bonusId: bonus._id })}>Claim</button>
          )}
          <button type="button" className="btn-ghost" disabled={busy} onClick={() => flow.send({ type: "bonus.forfeit", bonusId: bonus._id })}>Forfeit</button>
        </div>
      ) : null}
    </article>
  )
}

/** Forfeiting removes what the bonus wallet holds: the machine waits for the player to say so. */
const ConfirmForfeit = ({ flow }: { flow: BonusRef }) => {
  const confirming = useSelector(flow, (s) => s.hasTag("confirming"))
  const title = useSelector(flow, (s) => s.context.data?.bonuses.find((b) => b._id === s.context.pending?.bonusId)?.title)
  return (
    <Dialog open={confirming} title="Forfeit this bonus?" onClose={() => flow.send({ type: "forfeit.cancel" })} testId="forfeit-dialog">
      <div className="flex flex-col gap-4">
        <p className="m-0 text-sm">{title ? <strong>{title}: </strong> : null}what is in your bonus wallet will be removed. This cannot be undone.</p>
        <div className="flex justify-end gap-2">
          <button type="button" className="btn-ghost" onClick={() => flow.send({ type: "forfeit.cancel" })}>Keep it</button>
          <button type="button" className="btn-brand" onClick={() => flow.send({ type: "forfeit.confirm" })}>Forfeit</button>
        </div>
      </div>
    </Dialog>
  )
}

const BonusView = ({ flow, user }: { flow: BonusRef; user: User }) => {
  const data = useSelector(flow, (s) => s.context.data)
  const failed = useSelector(flow, (s) => s.hasTag("failed") && s.context.data === undefined)
  return (
    <>
      <div className="card flex flex-wrap items-center justify-between gap-3 p-4">
        <span className="flex flex-col">
          <span className="text-muted">Bonus wallet</span>
          <strong className="text-xl" data-testid="bonus-wallet">{formatRupees(data?.bonusBalance ?? 0)}</strong>
        </span>
        <span className="flex items-center gap-2 text-xs text-muted">Play from <WalletSwitch /></span>
        <p className="m-0 w-full text-sm text-muted" data-testid="wagering-rule">{WAGERING_RULE}</p>
      </div>
      {failed ? (
        <div className="card flex items-center justify-between gap-3 p-4">
          <p className="m-0 text-muted">Your bonuses could not be loaded.</p>
          <button type="button" className="btn-ghost" onClick={() => flow.send({ type: "bonus.reload" })}>Try again</button>
        </div>
      ) : null}
      {data && data.bonuses.length === 0 ? (
        <p className="card m-0 p-6 text-center text-muted" data-testid="welcome-terms">{welcomeTermsText(data.welcome)}</p>
      ) : null}
      <div className="grid gap-3 md:grid-cols-2">
        {(data?.bonuses ?? []).map((b) => <BonusCard key={b._id} bonus={b} flow={flow} />)}
      </div>
      <ConfirmForfeit flow={flow} />
    </>
  )
}

const BonusBody = ({ user }: { user: User }) => {
  const flow = useFlow("bonus", { input: undefined })
  return flow ? <BonusView flow={flow} user={user} /> : null
}

const Bonus = () => <PlayerPage section="bonus" title="Bonus">{(user) => <BonusBody user={user} />}</PlayerPage>

export default Bonus
