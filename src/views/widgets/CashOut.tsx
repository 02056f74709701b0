import { useSelector } from "@xstate/react"
import { memo, useCallback, useId, useSyncExternalStore } from "react"
import type { Position } from "../../domain/betting.ts"
import { formatRupees } from "../../domain/money.ts"
import { type AutoRule, CASH_OUT_PRESETS, type CashOutMarket, liveCashOut, QUOTE_CHANGED, quoteCovers } from "../../machines/cashOut.machine.ts"
import type { FlowRef } from "../../machines/flows.ts"
import { useOffline } from "../connectivity.ts"
import { usePorts } from "../ports.ts"
import { Dialog } from "./Dialog.tsx"

export type CashOutRef = FlowRef<"cashOut">

const valueClass = (value: number) => (value > 0 ? "text-ok" : value < 0 ? "text-bad" : "text-muted")

/**
 * The live cash-out value of `percent` of a position, from the odds books: re-read on its market's changes only
 * (like an odds cell), so a tick re-renders this and nothing else. "" when there is none to show.
 */
const useLiveValue = (marketId: string, runners: ReadonlyArray<string>, positions: ReadonlyArray<Position>, percent: number) => {
  const books = usePorts().oddsBooks.get()
  const subscribe = useCallback((listener: () => void) => books?.subscribeMarket(marketId, listener) ?? (() => {}), [books, marketId])
  const get = () => {
    const live = liveCashOut(books?.book(marketId), runners, positions, percent)
    return typeof live === "string" ? live : String(live.value)
  }
  const text = useSyncExternalStore(subscribe, get, get)
  return Number.isNaN(Number(text)) ? (text as "flat" | "fancy" | "notEnoughOnOffer" | "noPrices") : Number(text)
}

export interface CashOutButtonProps {
  readonly market: CashOutMarket
  readonly runners: ReadonlyArray<string>
  /** The player's matched bets on the market. */
  readonly positions: ReadonlyArray<Position>
  readonly flow: CashOutRef
}

/**
 * A market's Cash Out button: what the whole position would lock now, following the prices (green a gain, red a
 * loss). None once the position is flat; disabled while the market is suspended or the ladder cannot hedge it.
 */
export const CashOutButton = memo(({ market, runners, positions, flow }: CashOutButtonProps) => {
  const live = useLiveValue(market.marketId, runners, positions, 100)
  if (live === "flat" || live === "fancy") return null
  const value = typeof live === "number" ? live : undefined
  return (
    <button
      type="button"
      className="btn-ghost shrink-0 px-2 py-1 text-xs"
      data-testid={`cash-out-${market.marketId}`}
      disabled={value === undefined}
      aria-label={value === undefined ? `Cash out ${market.marketName}: not available now` : `Cash out ${market.marketName}: ${formatRupees(value)}`}
      onClick={() => flow.send({ type: "cashOut.open", market })}
    >
      Cash Out <span className={`font-700 ${value === undefined ? "text-muted" : valueClass(value)}`}>{value === undefined ? "–" : formatRupees(value)}</span>
    </button>
  )
})

/** Fancy lines: their Yes and No lines differ, so no hedge equalises them. */
export const NoFancyCashOut = () => <span className="block text-[11px] text-muted">Cash out is not available on fancy markets</span>

/**
 * The cash out of the market whose button was clicked: the part (25/50/75/100 % or any per cent on the slider), the
 * live value as prices move and the server's quote with each runner's P/L before and after; Cash out, then Confirm
 * unless confirmations are off. A modal: it keeps the focus and Escape closes it.
 */
export const CashOutDialog = ({ flow, runnersOf, positionsOf, earlierOf }: {
  flow: CashOutRef
  /** The market's runners (id and name). */
  runnersOf: (marketId: string) => ReadonlyArray<{ readonly selectionId: string; readonly name: string }>
  positionsOf: (marketId: string) => ReadonlyArray<Position>
  /** What earlier cash outs on the market locked (`earlierCashOut`). */
  earlierOf: (marketId: string) => number | "part" | undefined
}) => {
  const snapshot = useSelector(flow, (s) => s)
  const offline = useOffline()
  const market = snapshot.context.market
  if (snapshot.hasTag("closed") || !market) return null
  return <CashOutPanel flow={flow} snapshot={snapshot} market={market} runners={runnersOf(market.marketId)} positions={positionsOf(market.marketId)} earlier={earlierOf(market.marketId)} offline={offline} />
}

const CashOutPanel = ({ flow, snapshot, market, runners, positions, earlier, offline }: {
  flow: CashOutRef
  snapshot: ReturnType<CashOutRef["getSnapshot"]>
  market: CashOutMarket
  runners: ReadonlyArray<{ readonly selectionId: string; readonly name: string }>
  positions: ReadonlyArray<Position>
  earlier: number | "part" | undefined
  offline: boolean
}) => {
  const { percent, quote, error, changed, locked } = snapshot.context
  const busy = snapshot.hasTag("busy")
  const done = snapshot.hasTag("done")
  const quoted = snapshot.hasTag("quoted")
  const confirming = snapshot.hasTag("confirm")
  const live = useLiveValue(market.marketId, runners.map((r) => r.selectionId), positions, percent)
  const close = () => flow.send({ type: "cashOut.close" })
  const value = quote?.value
  const nameOf = (id: string) => runners.find((r) => r.selectionId === id)?.name ?? id
  return (
    <Dialog open title={`Cash out: ${market.marketName}`} onClose={close} testId="cash-out">
      <div className="flex flex-col gap-3 text-sm">
        {done ? null : (
          <>
            <fieldset className="m-0 border-0 p-0" disabled={busy}>
              <legend className="mb-1 text-xs text-muted">Part of your position to cash out</legend>
              <div className="grid grid-cols-4 gap-1">
                {CASH_OUT_PRESETS.map((preset) => (
                  <button
                    key={preset}
                    type="button"
                    className={`btn-ghost px-1 py-1 text-xs ${percent === preset ? "border-brand font-700" : ""}`}
                    aria-pressed={percent === preset}
                    onClick={() => flow.send({ type: "cashOut.percent", percent: preset })}
                  >
                    {preset} %
                  </button>
                ))}
              </div>
              <label className="mt-2 flex items-center gap-2 text-xs text-muted">
                <span className="shrink-0">Any part</span>
                <input
                  type="range"
                  min={1}
                  max={100}
                  step={1}
                  // Uncontrolled while dragged would skip quotes; each step asks for one, the last one stands.
                  value={percent}
                  aria-label="Part to cash out, per cent"
                  aria-valuetext={`${percent} %`}
                  className="flex-1"
                  onChange={(e) => flow.send({ type: "cashOut.percent", percent: Number(e.target.value) })}
                />
                <span className="w-12 whitespace-nowrap text-right font-700 text-fg" data-testid="cash-out-percent">{percent} %</span>
              </label>
            </fieldset>

            <dl className="m-0 grid grid-cols-2 gap-x-2 gap-y-1">
              <dt className="text-muted">Live value</dt>
              <dd className={`m-0 text-right font-700 ${typeof live === "number" ? valueClass(live) : "text-muted"}`} data-testid="cash-out-live">
                {typeof live === "number" ? formatRupees(live) : "–"}
              </dd>
              <dt className="text-muted">Quoted</dt>
              <dd className={`m-0 text-right font-700 ${value !== undefined ? valueClass(value) : "text-muted"}`} data-testid="cash-out-quote">
                {snapshot.hasTag("quoting") ? "Getting a quote…" : value !== undefined ? formatRupees(value) : "–"}
              </dd>
            </dl>
            {/* The figures are of the whole position: a fresh bet after a cash out is quoted with what that locked. */}
            <p className="m-0 text-xs text-muted" data-testid="cash-out-covers">{quoteCovers(percent, earlier)}</p>

            {quote && quoted ? (
              <table className="w-full text-xs" aria-label="Profit and loss before and after the cash out">
                <thead>
                  <tr className="text-muted"><th className="text-left font-500">If this wins</th><th className="text-right font-500">Now</th><th className="text-right font-500">After</th></tr>
                </thead>
                <tbody>
                  {quote.perRunner.map((row) => (
                    <tr key={row.selectionId}>
                      <td className="truncate py-0.5">{nameOf(row.selectionId)}</td>
                      <td className={`text-right ${valueClass(row.before)}`}>{formatRupees(row.before)}</td>
                      <td className={`text-right font-700 ${valueClass(row.after)}`}>{formatRupees(row.after)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
          </>
        )}

        {done ? null : <AutoCashOut flow={flow} rule={snapshot.context.auto} error={snapshot.context.autoError} busy={busy} />}

        {changed && quoted ? <p role="alert" className="m-0 rounded bg-warn/15 px-2 py-1 text-xs text-warn">{QUOTE_CHANGED}</p> : null}
        {error && snapshot.hasTag("refused") ? <p role="alert" className="m-0 rounded bg-warn/15 px-2 py-1 text-xs text-warn">{error}</p> : null}
        {done && locked !== undefined ? <p role="status" className="m-0 rounded bg-ok/15 px-2 py-1 text-xs text-ok">Cashed out {formatRupees(locked)}</p> : null}

        <div className="flex gap-2">
          {done ? (
            <button type="button" className="btn-brand flex-1" autoFocus onClick={close}>Done</button>
          ) : confirming ? (
            <>
              <button type="button" className="btn-ghost flex-1" onClick={() => flow.send({ type: "cashOut.back" })}>Back</button>
              <button type="button" className="btn-brand flex-1" disabled={offline} onClick={() => flow.send({ type: "cashOut.confirm" })}>
                Confirm cash out of {formatRupees(value ?? 0)}
              </button>
            </>
          ) : snapshot.hasTag("refused") ? (
            <>
              <button type="button" className="btn-ghost flex-1" onClick={close}>Cancel</button>
              <button type="button" className="btn-brand flex-1" disabled={offline} onClick={() => flow.send({ type: "cashOut.retry" })}>Try again</button>
            </>
          ) : (
            <>
              <button type="button" className="btn-ghost flex-1" onClick={close} disabled={busy}>Cancel</button>
              <button type="button" className="btn-brand flex-1" disabled={!quoted || busy || offline} onClick={() => flow.send({ type: "cashOut.request" })}>
                {busy ? "Cashing out…" : value !== undefined && quoted ? `Cash out ${formatRupees(value)}` : "Cash out"}
              </button>
            </>
          )}
        </div>
      </div>
    </Dialog>
  )
}

/** A rupee amount as typed, or null when the field is empty (NaN when it is not an amount: the machine refuses it). */
const amountOrNull = (value: FormDataEntryValue | null) => (typeof value === "string" && value.trim() !== "" ? Number(value) : null)

/**
 * Auto cash out: the whole position at a value reached (take profit) or fallen to (stop loss). The fields are the
 * form's own until saved; the server's answer shows as a toast.
 */
const AutoCashOut = ({ flow, rule, error, busy }: { flow: CashOutRef; rule: AutoRule; error: string | undefined; busy: boolean }) => {
  const ids = { target: useId(), floor: useId() }
  const set = rule.target !== null || rule.floor !== null
  return (
    <details className="text-xs" open={set}>
      <summary className="cursor-pointer text-muted">Auto cash out{set ? " (on)" : ""}</summary>
      <form
        // A saved rule resets the fields to it.
        key={`${rule.target}|${rule.floor}`}
        className="mt-2 grid grid-cols-2 gap-2"
        onSubmit={(e) => {
          e.preventDefault()
          const form = new FormData(e.currentTarget)
          const next = { target: amountOrNull(form.get("target")), floor: amountOrNull(form.get("floor")) }
          flow.send({ type: "cashOut.auto", ...next })
        }}
      >
        <label htmlFor={ids.target} className="text-muted">
          Take profit at (₹)
          <input id={ids.target} name="target" className="field mt-1 py-1" inputMode="decimal" defaultValue={rule.target ?? ""} disabled={busy} />
        </label>
        <label htmlFor={ids.floor} className="text-muted">
          Stop loss at (₹)
          <input id={ids.floor} name="floor" className="field mt-1 py-1" inputMode="decimal" defaultValue={rule.floor ?? ""} disabled={busy} />
        </label>
        <button type="submit" className="btn-ghost py-1 text-xs" disabled={busy}>Save auto cash out</button>
        {set ? (
          <button type="button" className="btn-ghost py-1 text-xs" disabled={busy} onClick={() => flow.send({ type: "cashOut.auto", target: null, floor: null })}>
            Remove auto cash out
          </button>
        ) : null}
        {error ? <p role="alert" className="col-span-2 m-0 rounded bg-warn/15 px-2 py-1 text-warn">{error}</p> : null}
      </form>
    </details>
  )
}
