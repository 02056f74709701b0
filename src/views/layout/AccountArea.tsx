import { useSelector } from "@xstate/react"
import { lazy, Suspense, useEffect, useRef, useState } from "react"
import { Link } from "react-router"
import { balanceLines, isCreditPlayer } from "../../domain/account.ts"
import { formatRupees } from "../../domain/money.ts"
import type { User } from "../../schema/user.ts"
import { useOpenAuth, useRestoring, useSessionRef, useUser } from "../session.ts"
import { Icon, type IconName } from "../widgets/Icon.tsx"
import { WalletSwitch } from "../widgets/WalletSwitch.tsx"
import { useOffline } from "../connectivity.ts"
import { useOpenedFlow } from "../flows.ts"
import { OfflineBadge } from "./Offline.tsx"

const MyBetsModal = lazy(() => import("../modals/MyBetsModal.tsx"))

/** The Register button pulses for 10 s, or until the player hovers, focuses or clicks it. */
export const REGISTER_PULSE_MS = 10_000

const useRegisterPulse = () => {
  const [pulsing, setPulsing] = useState(true)
  useEffect(() => {
    const timer = setTimeout(() => setPulsing(false), REGISTER_PULSE_MS)
    return () => clearTimeout(timer)
  }, [])
  return [pulsing, () => setPulsing(false)] as const
}

const VisitorButtons = () => {
  const openAuth = useOpenAuth()
  const [pulsing, stopPulse] = useRegisterPulse()
  return (
    <div className="flex items-center gap-2">
      <button type="button" className="btn-ghost px-3 py-1.5" onClick={() => openAuth("login")}>Login</button>
      <button
        type="button"
        data-pulsing={pulsing}
        className={`btn-brand px-3 py-1.5 ${pulsing ? "pulse" : ""}`}
        onMouseEnter={stopPulse}
        onFocus={stopPulse}
        onClick={() => {
          stopPulse()
          openAuth("register")
        }}
      >
        Register
      </button>
    </div>
  )
}

/**
 * Balance, Exposure, Bonus and Ref. Bonus (Credit Ref. for a credit player) on every width (SPEC section 6): two
 * by two under 1280 px, where the header has no room for a row of four, in one row from there.
 */
const BalanceBlock = ({ user }: { user: User }) => (
  <dl className="m-0 grid grid-cols-[auto_auto] gap-x-2.5 gap-y-0.5 rounded-md border border-line bg-bg px-2 py-0.5 text-[11px] sm:px-3 xl:flex xl:items-center xl:gap-3 xl:py-1 xl:text-xs" aria-label="Your balance" data-testid="balance-block">
    {balanceLines(user).map(([label, value]) => (
      <div key={label} className="flex flex-col whitespace-nowrap leading-[1.15] xl:leading-tight">
        <dt className="text-[10px] text-muted xl:text-xs">{label}</dt>
        <dd className="m-0 font-700 tabular-nums" data-testid={`balance-${label.toLowerCase().replace(/[^a-z]+/g, "-")}`}>{formatRupees(value)}</dd>
      </div>
    ))}
  </dl>
)

/** Deposit shows in the header from 768 px, Withdraw and Bonus from 1280 px; below that they are in the account menu. */
const MONEY_LINKS: ReadonlyArray<readonly [to: string, label: string, icon: IconName, header: string, menu: string]> = [
  ["/deposit", "Deposit", "deposit", "hidden md:inline-flex", "md:hidden"],
  ["/withdrawal", "Withdraw", "withdraw", "hidden xl:inline-flex", "xl:hidden"],
  ["/bonus", "Bonus", "gift", "hidden xl:inline-flex", "xl:hidden"]
]

interface MenuItem {
  readonly label: string
  readonly icon: IconName
  readonly to?: string
  readonly onSelect?: () => void
  /** Hides the entry where the header already shows it. */
  readonly className?: string
}

/** Menu entries hidden at this width (shown in the header instead) are skipped. */
const visibleItems = (menu: HTMLElement | null) =>
  [...(menu?.querySelectorAll<HTMLElement>("[role=menuitem]") ?? [])].filter((item) => item.getClientRects().length > 0)

/** The profile menu: a button with a menu that arrow keys move through and Escape closes. */
const ProfileMenu = ({ user, items }: { user: User; items: ReadonlyArray<MenuItem> }) => {
  const [open, setOpen] = useState(false)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const menuRef = useRef<HTMLUListElement>(null)
  useEffect(() => {
    if (!open) return
    visibleItems(menuRef.current)[0]?.focus()
    const onPointer = (event: PointerEvent) => {
      if (!menuRef.current?.contains(event.target as Node) && !buttonRef.current?.contains(event.target as Node)) setOpen(false)
    }
    document.addEventListener("pointerdown", onPointer)
    return () => document.removeEventListener("pointerdown", onPointer)
  }, [open])
  const close = () => {
    setOpen(false)
    buttonRef.current?.focus()
  }
  const onKeyDown = (event: React.KeyboardEvent) => {
    const entries = visibleItems(menuRef.current)
    const index = entries.indexOf(document.activeElement as HTMLElement)
    if (event.key === "Escape") close()
    else if (event.key === "ArrowDown") entries[(index + 1) % entries.length]?.focus()
    else if (event.key === "ArrowUp") entries[(index - 1 + entries.length) % entries.length]?.focus()
    else return
    event.preventDefault()
  }
  return (
    <div className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={`Account menu for ${user.name}`}
        onClick={() => setOpen((o) => !o)}
        className="flex items-center gap-0.5 rounded-md border border-line px-1.5 py-1.5 hover:bg-raised sm:(gap-1 px-2)"
      >
        <Icon name="user" />
        <span className="hidden max-w-24 truncate text-sm font-600 xl:inline">{user.username}</span>
        <Icon name="chevronDown" size={14} />
      </button>
      {open ? (
        <ul ref={menuRef} role="menu" aria-label="Account" onKeyDown={onKeyDown} className="card absolute right-0 top-full z-50 mt-1 w-56 list-none p-1 shadow-xl">
          <li role="none" className="border-b border-line px-3 py-2 text-xs text-muted">
            Signed in as <strong className="text-fg">{user.username}</strong>
          </li>
          {items.map((item) => (
            <li key={item.label} role="none" className={item.className}>
              {item.to ? (
                <Link role="menuitem" to={item.to} onClick={() => setOpen(false)} className="flex items-center gap-2 rounded px-3 py-2 text-sm hover:bg-raised focus:bg-raised focus:outline-none">
                  <Icon name={item.icon} size={16} /> {item.label}
                </Link>
              ) : (
                <button
                  type="button"
                  role="menuitem"
                  onClick={() => {
                    setOpen(false)
                    item.onSelect?.()
                  }}
                  className="flex w-full items-center gap-2 rounded px-3 py-2 text-left text-sm hover:bg-raised focus:bg-raised focus:outline-none"
                >
                  <Icon name={item.icon} size={16} /> {item.label}
                </button>
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}

const PlayerArea = ({ user }: { user: User }) => {
  const session = useSessionRef()
  const openAuth = useOpenAuth()
  const credit = isCreditPlayer(user)
  // The modal's open flag is view state; its content is the myBets machine's. The app's My Bets shortcut opens it
  // (`/?show=my-bets`: the web manifest, server/settings/manifest.ts).
  const [myBetsOpen, setMyBetsOpen] = useState(() => new URLSearchParams(location.search).get("show") === "my-bets")
  const install = useOpenedFlow("install")
  const installable = useSelector(install, (s) => s?.hasTag("installable") ?? false)
  const notifications = useOpenedFlow("notifications")
  // Unknown until the service worker is active; nothing where the browser has no Web Push.
  const push = useSelector(notifications, (s) =>
    s === undefined || s.hasTag("checking") || s.hasTag("unsupported") ? undefined : s.hasTag("on") ? "on" : s.hasTag("blocked") ? "blocked" : "off")
  const items: Array<MenuItem> = [
    ...(credit ? [] : MONEY_LINKS.map(([to, label, icon, , menu]) => ({ label, icon, to, className: menu }))),
    { label: "My Bets", icon: "bets", onSelect: () => setMyBetsOpen(true) },
    ...(credit ? [] : [{ label: "Referral Bonus", icon: "gift" as const, to: "/referral-bonus" }]),
    { label: "Account Statements", icon: "statement", to: "/statements" },
    { label: "Profit And Loss", icon: "chart", to: "/profit-loss" },
    { label: "Change Password", icon: "key", onSelect: () => openAuth("changePassword") },
    ...(push === undefined ? [] : [{
      label: push === "on" ? "Turn off notifications" : push === "blocked" ? "Notifications blocked" : "Turn on notifications",
      icon: "bell" as const,
      onSelect: () => notifications?.send({ type: push === "on" ? "notifications.disable" : "notifications.enable" })
    }]),
    ...(installable ? [{ label: "Install app", icon: "install" as const, onSelect: () => install?.send({ type: "install.open" }) }] : []),
    { label: "Logout", icon: "logout", onSelect: () => session.send({ type: "session.logout" }) }
  ]
  return (
    <div className="flex items-center gap-1.5 sm:gap-2">
      {credit ? null : (
        <nav aria-label="Money" className="hidden items-center gap-1 md:flex">
          {MONEY_LINKS.map(([to, label, icon, header]) => (
            <Link key={to} to={to} className={`${label === "Deposit" ? "btn-brand" : "btn-ghost"} ${header} px-3 py-1.5`}>
              <Icon name={icon} size={16} /> {label}
            </Link>
          ))}
        </nav>
      )}
      {credit ? null : <WalletSwitch wideOnly />}
      <BalanceBlock user={user} />
      <ProfileMenu user={user} items={items} />
      {myBetsOpen ? (
        <Suspense fallback={null}>
          <MyBetsModal open onClose={() => setMyBetsOpen(false)} />
        </Suspense>
      ) : null}
    </div>
  )
}

/** The header's right side: Login/Register for visitors, balances and the account menu for players. */
export const AccountArea = () => {
  const user = useUser()
  const restoring = useRestoring()
  const offline = useOffline()
  // No balance that could not be live, and no sign-in that could not be sent.
  if (offline) return <OfflineBadge />
  if (user) return <PlayerArea user={user} />
  if (restoring) return <div className="h-9 w-40 animate-pulse rounded-md bg-raised" aria-label="Loading your account" role="status" />
  return <VisitorButtons />
}
