import { rulesOf } from "../../domain/marketRules.ts"
import type { MarketType } from "../../schema/sports.ts"

/**
 * The "i" beside a market's name: its rules (src/domain/marketRules.ts) in a
 * popover, which the browser closes on Escape or a click elsewhere.
 */
export const MarketRules = ({ id, name, marketType }: { id: string; name: string; marketType: MarketType }) => {
  const { summary, rules } = rulesOf({ name, marketType })
  const popover = `rules-${id}`
  return (
    <>
      <button
        type="button"
        popoverTarget={popover}
        aria-label={`Rules: ${name}`}
        className="grid h-5 w-5 shrink-0 place-items-center rounded-full border border-line text-[11px] font-700 text-muted hover:text-fg"
      >
        i
      </button>
      <div id={popover} popover="auto" role="dialog" aria-label={`Rules: ${name}`} className="card m-auto max-w-sm p-4 text-sm" data-testid="market-rules">
        <h3 className="m-0 text-base font-700">{name}</h3>
        <p className="m-0 mt-1">{summary}</p>
        <ul className="m-0 mt-2 flex flex-col gap-1 pl-4 text-muted">
          {rules.map((rule) => <li key={rule}>{rule}</li>)}
        </ul>
        <button type="button" popoverTarget={popover} popoverTargetAction="hide" className="btn-ghost mt-3">Close</button>
      </div>
    </>
  )
}
