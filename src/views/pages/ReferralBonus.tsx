import { useSelector } from "@xstate/react"
import { formatRupees } from "../../domain/money.ts"
import { lastWeeks } from "../../domain/ranges.ts"
import { referralRuleText } from "../../domain/bonusRules.ts"
import { referralLink, referralRewardText } from "../../domain/referral.ts"
import type { FlowRef } from "../../machines/flows.ts"
import { useFlow } from "../flows.ts"
import { CopyButton, PlayerPage, Signed, Table, when } from "../payments/ui.tsx"

/** The weekly list shows the last eight weeks, this one included. */
const WEEKS_SHOWN = 8

const NONE: ReadonlyArray<never> = []

const dayMonth = new Intl.DateTimeFormat("en-IN", { day: "2-digit", month: "short", timeZone: "Asia/Kolkata" })

const ReferralView = ({ referral }: { referral: FlowRef<"referral"> }) => {
  const users = useSelector(referral, (s) => s.context.referrals?.users)
  const weeks = useSelector(referral, (s) => s.context.referrals?.weeks ?? NONE)
  const transactions = useSelector(referral, (s) => s.context.referrals?.transactions ?? NONE)
  const busy = useSelector(referral, (s) => s.hasTag("busy"))
  const code = users?.referralCode ?? ""
  const link = code ? referralLink(location.origin, code) : ""
  const refBonus = users?.refBonus ?? 0
  return (
    <>
      <div className="grid gap-3 md:grid-cols-2">
        <section className="card flex flex-col gap-2 p-4" aria-labelledby="ref-link">
          <h2 id="ref-link" className="m-0 text-sm font-700 text-muted">Your referral link</h2>
          <div className="flex items-center gap-2 rounded-md border border-line bg-bg px-3 py-2">
            <span className="min-w-0 flex-1 truncate font-600" data-testid="referral-link">{link || "…"}</span>
            {link ? <CopyButton value={link} label="referral link" /> : null}
          </div>
          <p className="m-0 text-xs text-muted">
            {users ? referralRuleText(users.rule) : null} Code: <strong className="text-fg">{code}</strong>
          </p>
        </section>
        <section className="card flex flex-col gap-2 p-4" aria-labelledby="ref-bonus">
          <h2 id="ref-bonus" className="m-0 text-sm font-700 text-muted">Referral bonus</h2>
          <p className="m-0 text-2xl font-800 text-brand" data-testid="ref-bonus">{formatRupees(refBonus)}</p>
          <button
            type="button"
            className="btn-brand self-start"
            disabled={refBonus <= 0 || busy}
            onClick={() => referral.send({ type: "referral.claim" })}
          >
            Claim to main balance
          </button>
        </section>
      </div>
      <section className="flex flex-col gap-2" aria-labelledby="ref-users">
        <h2 id="ref-users" className="m-0 text-base font-700">Friends who joined</h2>
        <Table
          caption="Referred players"
          testId="referral-users"
          head={["Name", "Username", "Joined", "Reward"]}
          rows={(users?.users ?? []).map((u) => [u.name, u.username, when(u.joinedAt), referralRewardText(u.status, formatRupees(u.reward))])}
        />
      </section>
      <section className="flex flex-col gap-2" aria-labelledby="ref-weekly">
        <h2 id="ref-weekly" className="m-0 text-base font-700">By week (Sunday to Saturday)</h2>
        <Table
          caption="Referral rewards by week"
          testId="referral-weekly"
          head={["Week", "Rewards", "Amount"]}
          rows={weeks.map((w) => [`${dayMonth.format(new Date(w.startDate))} – ${dayMonth.format(new Date(w.endDate))}`, String(w.rewards), formatRupees(w.amount)])}
        />
      </section>
      <section className="flex flex-col gap-2" aria-labelledby="ref-transactions">
        <h2 id="ref-transactions" className="m-0 text-base font-700">Referral transactions</h2>
        <Table
          caption="Referral transactions"
          testId="referral-transactions"
          head={["Date", "Description", "Amount"]}
          rows={transactions.map((t) => [when(t.createdAt), t.description, <Signed amount={t.amount} />])}
        />
      </section>
    </>
  )
}

const ReferralBody = () => {
  const { from, to } = lastWeeks(WEEKS_SHOWN)
  const referral = useFlow("referral", { input: { weekly: { startDate: from.toISOString(), endDate: to.toISOString() } } })
  return referral ? <ReferralView referral={referral} /> : null
}

const ReferralBonus = () => <PlayerPage section="referral" title="Referral Bonus">{() => <ReferralBody />}</PlayerPage>

export default ReferralBonus
