import type { ReactNode } from "react"
import { Link } from "react-router"
import { eventHref } from "../../domain/catalogue.ts"
import { matchedLiability, priceLabel, sideLabel } from "../../domain/betting.ts"
import { eventDateLabel } from "../../domain/dates.ts"
import { ladderDown, ladderUp } from "../../domain/ladder.ts"
import { averageOdds } from "../../domain/matching.ts"
import { formatAmount, formatRupees } from "../../domain/money.ts"
import type { Bet } from "../../schema/bets.ts"

/** Bets grouped by event, in the order their newest bet was placed. */
export const groupByEvent = (bets: ReadonlyArray<Bet>) => {
  const groups = new Map<string, { event: Bet["eventId"]; sport: string; league: string; bets: Array<Bet> }>()
  for (const bet of bets) {
    const group = groups.get(bet.eventId._id) ?? { event: bet.eventId, sport: bet.sportId.slugName, league: bet.leagueId.slugName, bets: [] }
    group.bets.push(bet)
    groups.set(bet.eventId._id, group)
  }
  return [...groups.values()]
}

/** What to do about an unmatched bet: cancel what of it waits, or move it a tick (off while a change is in flight). */
export interface BetChanges {
  readonly cancel: (betId: string) => void
  readonly move: (betId: string, odds: number) => void
  readonly busy: boolean
}

/** An unmatched bet's changes: a tick lower, a tick higher, cancel. */
const WaitingChanges = ({ bet, changes }: { bet: Bet; changes: BetChanges }) => {
  const waiting = `${formatRupees(bet.unmatched)} unmatched on ${bet.selection}`
  const step = (odds: number, label: string) =>
    odds === bet.odds ? null : (
      <button type="button" className="btn-ghost px-1.5 py-0.5 text-xs" disabled={changes.busy} aria-label={`Move ${waiting} to ${priceLabel(odds, bet.marketType)}`} onClick={() => changes.move(bet._id, odds)}>
        {label}
      </button>
    )
  return (
    <span className="inline-flex items-center gap-1">
      {bet.marketType === "EXCHANGE" ? step(ladderDown(bet.odds), "−") : null}
      {bet.marketType === "EXCHANGE" ? step(ladderUp(bet.odds), "+") : null}
      <button
        type="button"
        className="btn-ghost px-2 py-0.5 text-xs"
        disabled={changes.busy}
        aria-label={`Cancel ${waiting} at ${priceLabel(bet.odds, bet.marketType)}`}
        onClick={() => changes.cancel(bet._id)}
      >
        Cancel
      </button>
    </span>
  )
}

const head = (last: string) => (
  <thead className="sticky top-0 bg-surface text-muted">
    <tr>
      <th scope="col" className="px-2 py-1 text-left font-600">Selection</th>
      <th scope="col" className="px-2 py-1 text-right font-600">Odds</th>
      <th scope="col" className="px-2 py-1 text-right font-600">Stake</th>
      <th scope="col" className="px-2 py-1 text-right font-600">{last}</th>
      <th scope="col" className="px-2 py-1 text-left font-600">Market</th>
      <th scope="col" className="px-2 py-1 text-left font-600">Created at</th>
    </tr>
  </thead>
)

/** A bet's row: its side's colour and tag, the odds and stake given, `cell` in the fourth column. */
const BetRow = ({ bet, odds, stake, cell, testId }: { bet: Bet; odds: number; stake: number; cell: ReactNode; testId: string }) => {
  const fancy = bet.marketType === "FANCY"
  return (
    <tr className={`h-[58px] border-t border-line ${bet.selectionType === "back" ? "bg-back/10" : "bg-lay/10"}`} data-testid={testId}>
      <td className="px-2 py-1">
        {/* Back or Lay on every market, fancy included (a fancy Back is its Yes, a Lay its No). */}
        <span className={`mr-1 rounded px-1 py-0.5 text-[10px] font-700 text-[#10151f] ${bet.selectionType === "back" ? "bg-back" : "bg-lay"}`}>{sideLabel(bet.selectionType)}</span>
        {bet.selection}
        {/* A cash out's hedge bet, labelled as such (issue 31). */}
        {bet.cashOut ? <span className="ml-1 whitespace-nowrap rounded bg-warn/20 px-1 py-0.5 text-[10px] font-700 text-warn" data-testid="cash-out-tag">Cash out</span> : null}
      </td>
      <td className="px-2 py-1 text-right">{priceLabel(odds, bet.marketType)}{fancy && bet.oddsSize !== null ? ` / ${bet.oddsSize}` : ""}</td>
      <td className="px-2 py-1 text-right">{formatAmount(stake)}</td>
      <td className="px-2 py-1 text-right">{cell}</td>
      <td className="px-2 py-1">{bet.marketName}</td>
      <td className="whitespace-nowrap px-2 py-1 text-muted">{eventDateLabel(bet.createdAt)}</td>
    </tr>
  )
}

/**
 * Selection (with a Back or Lay tag), Odds, Stake, P/L, Market, Created at (SPEC section 2, My Bets), the matched bets
 * and the unmatched ones apart: a matched row shows what was matched (at its average price) and what it risks or
 * won; an unmatched row what waits at the price asked, with a tick down, a tick up and Cancel. A partly matched bet shows in both.
 */
export const BetsTable = ({ bets, changes }: { bets: ReadonlyArray<Bet>; changes?: BetChanges | undefined }) => {
  const matched = bets.filter((bet) => bet.matched > 0 || bet.profitLoss !== null)
  const unmatched = bets.filter((bet) => bet.unmatched > 0)
  return (
    <div className="max-h-[280px] overflow-auto">
      {matched.length > 0 ? (
        <table className="w-full border-collapse text-xs" aria-label="Matched bets">
          {unmatched.length > 0 ? <caption className="px-2 py-1 text-left text-xs font-700">Matched</caption> : null}
          {head("P/L")}
          <tbody>
            {matched.map((bet) => (
              <BetRow
                key={bet._id}
                bet={bet}
                testId="bet-row"
                odds={averageOdds(bet.matches.map((m) => ({ odds: m.odds, stake: Math.round(m.stake * 100) }))) ?? bet.odds}
                stake={bet.matched > 0 ? bet.matched : bet.stake}
                cell={bet.profitLoss !== null ? (
                  // Settled: the result; open: what its matched part risks.
                  <span className={bet.profitLoss >= 0 ? "text-ok" : "text-bad"}>{formatAmount(bet.profitLoss)}</span>
                ) : (
                  <span className="text-bad">{formatAmount(-matchedLiability(bet))}</span>
                )}
              />
            ))}
          </tbody>
        </table>
      ) : null}
      {unmatched.length > 0 ? (
        <table className="w-full border-collapse text-xs" aria-label="Unmatched bets">
          <caption className="px-2 py-1 text-left text-xs font-700">Unmatched</caption>
          {head("")}
          <tbody>
            {unmatched.map((bet) => (
              <BetRow
                key={bet._id}
                bet={bet}
                testId="unmatched-row"
                odds={bet.odds}
                stake={bet.unmatched}
                cell={changes ? <WaitingChanges bet={bet} changes={changes} /> : null}
              />
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  )
}

/** Groups of bets by event, collapsible, the first open, each linking to its event page. */
export const BetGroups = ({ bets, onNavigate, changes }: { bets: ReadonlyArray<Bet>; onNavigate?: () => void; changes?: BetChanges | undefined }) => {
  const groups = groupByEvent(bets)
  if (groups.length === 0) return <p className="m-0 p-4 text-center text-sm text-muted">No Data Available</p>
  return (
    <div className="flex flex-col gap-2">
      {groups.map((group, index) => (
        <details key={group.event._id} open={index === 0} className="rounded-md border border-line" data-testid="bet-group">
          <summary className="flex cursor-pointer items-center justify-between gap-2 bg-raised px-3 py-2 text-sm font-700">
            <span className="truncate">{group.event.name}</span>
            <span className="text-xs font-500 text-muted">{group.bets.length} {group.bets.length === 1 ? "bet" : "bets"}</span>
          </summary>
          <Link
            to={eventHref({ slugName: group.sport }, { slugName: group.league }, { slugName: group.event.slugName })}
            onClick={onNavigate}
            className="block px-3 py-1 text-xs text-brand underline"
          >
            Open {group.event.name}
          </Link>
          <BetsTable bets={group.bets} changes={changes} />
        </details>
      ))}
    </div>
  )
}
