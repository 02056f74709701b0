import type { ReactElement } from "react"
import type { Permission } from "../../domain/staff.ts"
import { AccountPage } from "./pages/AccountPage.tsx"
import { DepositsPage } from "./pages/DepositsPage.tsx"
import { AuditPage } from "./pages/AuditPage.tsx"
import { CasinoPage } from "./pages/CasinoPage.tsx"
import { PlayersPage } from "./pages/PlayersPage.tsx"
import { MarketsPage } from "./pages/MarketsPage.tsx"
import { SettingsPage } from "./pages/SettingsPage.tsx"
import { SignalsPage } from "./pages/SignalsPage.tsx"
import { TodayPage } from "./pages/TodayPage.tsx"
import { WithdrawalsPage } from "./pages/WithdrawalsPage.tsx"

/**
 * The desk's screens, in the order of its menu: each shown to the roles whose
 * permission it names (the server refuses the rest anyway), routed under /admin.
 */
export interface Screen {
  readonly path: string
  readonly label: string
  readonly permission: Permission | "staff"
  readonly element: ReactElement
}

export const SCREENS: ReadonlyArray<Screen> = [
  { path: "/today", label: "Today", permission: "reports.read", element: <TodayPage /> },
  { path: "/deposits", label: "Deposits", permission: "queues.read", element: <DepositsPage /> },
  { path: "/withdrawals", label: "Withdrawals", permission: "queues.read", element: <WithdrawalsPage /> },
  { path: "/players", label: "Players", permission: "players.read", element: <PlayersPage /> },
  { path: "/signals", label: "Signals", permission: "players.read", element: <SignalsPage /> },
  { path: "/markets", label: "Markets and risk", permission: "markets.read", element: <MarketsPage /> },
  { path: "/settings", label: "Settings", permission: "settings.manage", element: <SettingsPage /> },
  { path: "/casino", label: "Casino", permission: "casino.manage", element: <CasinoPage /> },
  { path: "/audit", label: "Audit", permission: "audit.read", element: <AuditPage /> },
  { path: "/account", label: "My account", permission: "staff", element: <AccountPage /> }
]
