import { Link, useSearchParams } from "react-router"
import { sidebarSports, sportEventCount } from "../../domain/catalogue.ts"
import { countBadge } from "../../domain/sports.ts"
import { AppActor } from "../app-actor.ts"
import { Icon, sportIcon } from "./Icon.tsx"

/** Sport chips with event counts (99+ at most); horse and greyhound racing are hidden here (SPEC section 2). */
export const SportChips = () => {
  const sports = AppActor.useSelector((s) => s.context.sports)
  const [params] = useSearchParams()
  const current = params.get("sport")
  return (
    <nav aria-label="Sports" className="scrollbar-none flex gap-2 overflow-x-auto py-1">
      {sidebarSports(sports).map((sport) => {
        const count = sportEventCount(sport)
        const active = current === sport.slugName
        return (
          <Link
            key={sport._id}
            to={`/sports?sport=${sport.slugName}`}
            aria-current={active ? "page" : undefined}
            aria-label={`${sport.name}, ${count} events`}
            className={`chip shrink-0 gap-1.5 py-1.5 text-sm ${active ? "border-brand bg-brand text-brand-fg" : "bg-surface hover:border-brand"}`}
          >
            <Icon name={sportIcon(sport.slugName)} size={16} />
            {sport.name}
            <span className={`rounded-full px-1.5 text-[11px] font-700 ${active ? "bg-brand-fg/20" : "bg-raised"}`}>{countBadge(count)}</span>
          </Link>
        )
      })}
    </nav>
  )
}
