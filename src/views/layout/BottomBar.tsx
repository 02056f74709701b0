import { NavLink } from "react-router"
import { Icon, type IconName } from "../widgets/Icon.tsx"

const ITEMS: ReadonlyArray<readonly [to: string, label: string, icon: IconName]> = [
  ["/", "Home", "home"],
  ["/sports", "Sports", "sports"],
  ["/inplay", "Inplay", "inplay"],
  ["/live-casino", "Casino", "casino"],
  ["/slots", "Slots", "slots"]
]

/** Mobile navigation (hidden from 992 px up). */
export const BottomBar = () => (
  <nav aria-label="Main" className="fixed inset-x-0 bottom-0 z-40 grid grid-cols-5 border-t border-line bg-surface lg:hidden">
    {ITEMS.map(([to, label, icon]) => (
      <NavLink
        key={to}
        to={to}
        end={to === "/"}
        className={({ isActive }) => `flex flex-col items-center gap-0.5 py-2 text-[11px] ${isActive ? "text-brand" : "text-muted"}`}
      >
        <Icon name={icon} size={20} />
        {label}
      </NavLink>
    ))}
  </nav>
)
