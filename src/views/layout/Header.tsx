import { Link, useLocation } from "react-router"
import { AppActor } from "../app-actor.ts"
import { Icon } from "../widgets/Icon.tsx"
import { AccountArea } from "./AccountArea.tsx"

const SEGMENTS = [
  { label: "Casino", to: "/live-casino", active: ["/live-casino", "/slots"] },
  { label: "Sports", to: "/sports", active: ["/sports", "/inplay"] },
  { label: "SA Gaming", to: "/sa-casino", active: ["/sa-casino"] }
] as const

export const Logo = () => {
  const logo = AppActor.useSelector((s) => s.context.settings?.logoImg)
  const title = AppActor.useSelector((s) => s.context.settings?.siteTitle ?? "Khel")
  return (
    <Link to="/" className="flex shrink-0 items-center" aria-label={`${title}: home`}>
      {logo ? <img src={logo} alt="" width={120} height={32} className="h-7 w-auto sm:h-8" /> : <span className="text-xl font-800 text-brand">KHEL</span>}
    </Link>
  )
}

/** Casino / Sports / SA Gaming: Sports is lit on /sports and /inplay, SA Gaming on /sa-casino. */
const SegmentSwitch = () => {
  const { pathname } = useLocation()
  return (
    <nav aria-label="Sections" className="flex rounded-full border border-line bg-bg p-0.5">
      {SEGMENTS.map((segment) => {
        const active = (segment.active as ReadonlyArray<string>).includes(pathname)
        return (
          <Link
            key={segment.label}
            to={segment.to}
            aria-current={active ? "page" : undefined}
            className={`whitespace-nowrap rounded-full px-3 py-1.5 text-xs font-700 sm:px-4 sm:text-sm ${active ? "bg-brand text-brand-fg" : "text-muted hover:text-fg"}`}
          >
            {segment.label}
          </Link>
        )
      })}
    </nav>
  )
}

const ThemeToggle = () => {
  const theme = AppActor.useSelector((s) => s.context.theme)
  const app = AppActor.useActorRef()
  const next = theme === "dark" ? "light" : "dark"
  return (
    <button
      type="button"
      onClick={() => app.send({ type: "theme.toggle" })}
      aria-label={`Switch to ${next} theme`}
      className="rounded-md p-1.5 text-muted hover:(bg-raised text-fg) sm:p-2"
    >
      <Icon name={theme === "dark" ? "sun" : "moon"} />
    </button>
  )
}

/** When the operator has closed real-money deposits, every page says the site runs on demo credit. */
const DemoCreditNotice = () => {
  const closed = AppActor.useSelector((s) => s.context.allSettings?.compliance.depositsOpen === false)
  return closed ? (
    <p role="note" data-testid="demo-credit" className="m-0 border-b border-line bg-brand/15 px-3 py-1 text-center text-xs font-600">
      Demo credit only: real-money deposits are closed, and balances are play money.
    </p>
  ) : null
}

export const Header = () => (
  // overflow-x: clip (not hidden: the header stays sticky and the account menu still drops below it) keeps the
  // Register button's pulse ring, which scales past the button, from widening a phone's page.
  <header className="sticky top-0 z-30 overflow-x-clip border-b border-line bg-surface/95 backdrop-blur">
    <DemoCreditNotice />
    <div className="mx-auto flex min-h-14 max-w-[1440px] items-center gap-2 px-2 lg:gap-4 lg:px-3">
      <Logo />
      <div className="hidden lg:block">
        <SegmentSwitch />
      </div>
      <div className="ml-auto flex items-center gap-1 sm:gap-2">
        <ThemeToggle />
        <AccountArea />
      </div>
    </div>
    <div className="flex justify-center border-t border-line py-1.5 lg:hidden">
      <SegmentSwitch />
    </div>
  </header>
)
