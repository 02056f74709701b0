import { useSelector } from "@xstate/react"
import { useId } from "react"
import { priceLabel } from "../../domain/betting.ts"
import { betOutcome } from "../../domain/matching.ts"
import { chipLabel, formatAmount, formatRupees } from "../../domain/money.ts"
import { figures, offersKeep, projection, stakeProblem, takesBestPrice } from "../../machines/betSlip.machine.ts"
import type { FlowRef } from "../../machines/flows.ts"
import { useOffline } from "../connectivity.ts"

export type BetSlipRef = FlowRef<"betSlip">

const plClass = (value: number) => (value > 0 ? "text-ok" : value < 0 ? "text-bad" : "text-muted")

/**
 * Focuses the stake once the slip has painted, and brings the whole slip into view: on a phone, focusing the stake
 * alone left Place Bet under the bottom bar (the slip's `scroll-mb-*` keeps that bar's height clear). `autoFocus`
 * focuses inside React's commit, which forces a style and layout pass before the slip can paint: about half of a
 * price click's commit with the CPU slowed 4x.
 */
const WHOLE: ScrollIntoViewOptions = { block: "nearest" }

/** While the player works in the slip (the focus inside it), the slip stays whole in view as it grows (its P/L rows). */
const keepInView = (section: HTMLElement | null) => {
  if (!section) return
  const observer = new ResizeObserver(() => {
    if (section.contains(document.activeElement)) section.scrollIntoView(WHOLE)
  })
  observer.observe(section)
  return () => observer.disconnect()
}

const focusAfterPaint = (input: HTMLInputElement | null) => {
  if (!input) return
  let timer: ReturnType<typeof setTimeout> | undefined
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(() => {
      input.focus({ preventScroll: true })
      input.closest(".bet-slip")?.scrollIntoView(WHOLE)
    })
  })
  return () => {
    cancelAnimationFrame(frame)
    clearTimeout(timer)
  }
}

/**
 * The bet slip for the selection it holds: Back (blue) or Lay (pink), odds,
 * stake typed or from chips (editable), profit or liability as the player
 * types, the projected P/L of every runner (or the fancy book) and Place.
 * The machine follows the live price itself (an odds-change refusal offers it).
 */
export const BetSlip = ({ slip }: { slip: BetSlipRef }) => {
  const snapshot = useSelector(slip, (s) => s)
  const ids = { stake: useId(), odds: useId() }
  const { context } = snapshot
  const selection = context.selection
  if (!selection || snapshot.hasTag("closed")) return null
  const busy = snapshot.hasTag("busy")
  // Offline, a bet cannot be sent (its price could not be checked either): src/machines/connectivity.machine.ts.
  const offline = useOffline()
  const placed = snapshot.hasTag("placed")
  const editingChips = snapshot.hasTag("chips")
  const problem = stakeProblem(context)
  const { profit, liability } = figures(context)
  const book = projection(context)
  const isFancy = selection.marketType === "FANCY"
  const sideName = isFancy ? (selection.side === "back" ? "Yes" : "No") : selection.side === "back" ? "Back" : "Lay"
  return (
    <section
      aria-label="Bet slip"
      data-testid="bet-slip"
      ref={keepInView}
      className={`bet-slip scroll-mb-20 scroll-mt-2 rounded-md border p-3 text-sm lg:scroll-mb-2 ${selection.side === "back" ? "border-back bg-back/15" : "border-lay bg-lay/15"}`}
    >
      <header className="mb-2 flex items-center justify-between gap-2">
        <p className="m-0 min-w-0 truncate">
          <span className={`mr-2 rounded px-1.5 py-0.5 text-xs font-700 text-[#10151f] ${selection.side === "back" ? "bg-back" : "bg-lay"}`}>{sideName}</span>
          <strong>{selection.name}</strong> <span className="text-muted">· {selection.marketName}</span>
        </p>
        <button type="button" className="btn-ghost px-2 py-1" aria-label="Close bet slip" onClick={() => slip.send({ type: "slip.close" })} disabled={busy}>✕</button>
      </header>

      <div className="grid grid-cols-2 gap-2">
        <label htmlFor={ids.odds} className="text-xs text-muted">
          {isFancy ? `Line (size ${context.size ?? 100})` : selection.marketType === "BOOKMAKER" ? "Rate" : "Odds"}
          <input
            id={ids.odds}
            // Uncontrolled while typing; the machine gets the odds when the field is left (and the live price resets it).
            key={context.odds}
            className="field mt-1 py-1.5"
            inputMode="decimal"
            defaultValue={priceLabel(context.odds, selection.marketType)}
            readOnly={selection.marketType !== "EXCHANGE"}
            onBlur={(e) => {
              const value = Number(e.target.value)
              if (selection.marketType === "EXCHANGE" && Number.isFinite(value) && value !== context.odds) slip.send({ type: "slip.odds", value })
            }}
            disabled={busy}
          />
        </label>
        <label htmlFor={ids.stake} className="text-xs text-muted">
          Stake (₹)
          <input
            id={ids.stake}
            className="field mt-1 py-1.5"
            inputMode="decimal"
            placeholder="0"
            value={context.stake}
            onChange={(e) => slip.send({ type: "slip.stake", value: e.target.value })}
            disabled={busy}
            ref={focusAfterPaint}
          />
        </label>
      </div>

      {editingChips ? (
        <fieldset className="m-0 mt-2 border-0 p-0">
          <legend className="mb-1 text-xs text-muted">Edit your chips</legend>
          <div className="grid grid-cols-4 gap-1">
            {context.draft.map((value, index) => (
              <input
                key={index}
                aria-label={`Chip ${index + 1}`}
                className="field px-2 py-1 text-xs"
                inputMode="numeric"
                value={value}
                onChange={(e) => slip.send({ type: "chips.change", index, value: e.target.value })}
              />
            ))}
          </div>
          <div className="mt-2 flex gap-2">
            <button type="button" className="btn-brand flex-1 py-1.5" onClick={() => slip.send({ type: "chips.save" })}>Save chips</button>
            <button type="button" className="btn-ghost flex-1 py-1.5" onClick={() => slip.send({ type: "chips.cancel" })}>Cancel</button>
          </div>
        </fieldset>
      ) : (
        <div className="mt-2 grid grid-cols-4 gap-1" role="group" aria-label="Stake chips">
          {context.chips.map((amount) => (
            <button key={amount} type="button" className="btn-ghost px-1 py-1 text-xs" disabled={busy} onClick={() => slip.send({ type: "slip.chip", amount })}>
              {chipLabel(amount)}
            </button>
          ))}
          <button type="button" className="col-span-4 text-left text-xs text-brand underline disabled:opacity-50" disabled={busy} onClick={() => slip.send({ type: "chips.edit" })}>
            Edit chips
          </button>
        </div>
      )}

      <fieldset className="m-0 mt-2 flex flex-col gap-1 border-0 p-0 text-xs text-muted">
        <legend className="sr-only">Bet options</legend>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <label className="flex items-center gap-2">
            <input type="checkbox" checked={takesBestPrice(context)} disabled={busy} onChange={(e) => slip.send({ type: "slip.bestPrice", value: e.target.checked })} />
            Take the best available price
          </label>
          {context.setting ? (
            // The remembered default is the player's to set, and says so: it ticks the box on every slip, on every device.
            <label className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={context.setting.oddsChange === "any"}
                disabled={busy}
                onChange={(e) => slip.send({ type: "slip.oddsRule", rule: e.target.checked ? "any" : "better" })}
              />
              Always (remembered for your account)
            </label>
          ) : null}
        </div>
        {context.setting ? (
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              checked={context.setting.oneClick !== null}
              disabled={busy || (context.setting.oneClick === null && problem !== undefined)}
              onChange={(e) => slip.send({ type: "slip.oneClick", on: e.target.checked })}
            />
            {context.setting.oneClick !== null
              ? `One-click betting: a click on a price places ${formatRupees(context.setting.oneClick)}`
              : "One-click betting at this stake"}
          </label>
        ) : null}
        {offersKeep(selection) ? (
          <label className="flex items-center gap-2">
            <input type="checkbox" checked={context.keep} disabled={busy} onChange={(e) => slip.send({ type: "slip.keep", value: e.target.checked })} />
            Keep what is unmatched when the event goes in play
          </label>
        ) : null}
      </fieldset>

      <dl className="m-0 mt-2 grid grid-cols-2 gap-x-2 text-xs">
        <dt className="text-muted">{selection.side === "back" ? "Profit" : "Profit (stake)"}</dt>
        <dd className="m-0 text-right font-700 text-ok" data-testid="slip-profit">{formatRupees(profit)}</dd>
        <dt className="text-muted">Liability</dt>
        <dd className="m-0 text-right font-700 text-bad" data-testid="slip-liability">{formatRupees(liability)}</dd>
      </dl>

      {book.runners.length > 0 ? (
        <table className="mt-2 w-full text-xs" aria-label="Projected profit and loss">
          <thead>
            <tr className="text-muted">
              <th className="text-left font-500">If this wins</th>
              <th className="text-right font-500">Now</th>
              {/* Placed, the bet is in "Now": there is no after. */}
              {placed ? null : <th className="text-right font-500">After bet</th>}
            </tr>
          </thead>
          <tbody>
            {book.runners.map((runner) => (
              <tr key={runner.selectionId}>
                <td className="truncate py-0.5">{runner.name}</td>
                <td className={`text-right ${plClass(runner.now)}`}>{formatAmount(runner.now)}</td>
                {placed ? null : <td className={`text-right font-700 ${plClass(runner.next)}`}>{formatAmount(runner.next)}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {book.fancy.length > 0 ? (
        <details className="mt-2 text-xs">
          <summary className="cursor-pointer text-muted">Fancy book (P/L by runs)</summary>
          <table className="mt-1 w-full" aria-label="Fancy book">
            <tbody>
              {book.fancy.map((row) => (
                <tr key={row.result}><td>{row.result}</td><td className={`text-right font-700 ${plClass(row.pl)}`}>{formatAmount(row.pl)}</td></tr>
              ))}
            </tbody>
          </table>
        </details>
      ) : null}

      {context.error ? <p role="alert" className="m-0 mt-2 rounded bg-warn/15 px-2 py-1 text-xs text-warn">{context.error}</p> : null}
      {placed && context.placed ? <p role="status" className="m-0 mt-2 rounded bg-ok/15 px-2 py-1 text-xs text-ok">{betOutcome(context.placed.bet)}</p> : null}

      <div className="mt-3 flex gap-2">
        <button type="button" className="btn-ghost flex-1" onClick={() => slip.send({ type: "slip.close" })} disabled={busy}>Cancel</button>
        <button
          type="button"
          className="btn-brand flex-1"
          disabled={busy || placed || problem !== undefined || editingChips || offline}
          title={problem}
          onClick={() => slip.send({ type: "slip.place" })}
        >
          {busy ? "Placing…" : context.error === undefined ? "Place Bet" : "Place Again"}
        </button>
      </div>
      {problem && context.stake !== "" ? <p className="m-0 mt-1 text-xs text-muted">{problem}</p> : null}
    </section>
  )
}
