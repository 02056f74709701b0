/**
 * Who may do what on the operator's desk (/admin): the one table of roles and
 * their permissions (docs/backoffice.md). The server checks the permission an
 * endpoint names on every request; the desk only hides what a role cannot do.
 */
import { Roles } from "../schema/roles.ts"
import { indiaMoment } from "./ranges.ts"

/** Everything a desk endpoint may require. */
export const PERMISSIONS = [
  // Deposit and withdrawal requests: the queues, and claiming and deciding them.
  "queues.read",
  "deposits.decide",
  "withdrawals.decide",
  // Players: search and their page, notes, suspending and ending their sessions.
  "players.read",
  "players.note",
  "players.suspend",
  // Manual money (credit or debit a player), and being the second approver of it.
  "money.adjust",
  // Markets: the book and liability (read), suspend, resume and prices (manage), results and voids (settle).
  "markets.read",
  "markets.manage",
  "markets.settle",
  // Casino providers and games on or off, a player's rounds.
  "casino.manage",
  // Site settings, banners, deposit accounts, bonus and referral rules, protection settings.
  "settings.manage",
  // The four-eyes thresholds.
  "thresholds.manage",
  // Staff accounts.
  "staff.manage",
  // The audit trail: searching it, and exporting it as CSV (the whole record leaves the desk: the DIRECTOR's call).
  "audit.read",
  "audit.export",
  // The Today screen: cash, turnover and GGR.
  "reports.read"
] as const
export type Permission = (typeof PERMISSIONS)[number]

/** The roles that sign in on the desk (SPEC section 6 ids). The agent roles come later: until then they are refused like players. */
export const STAFF_ROLES = [Roles.DIRECTOR, Roles.ADMIN, Roles.SUPPORT_ADMIN] as const
export type StaffRole = (typeof STAFF_ROLES)[number]

const SUPPORT: ReadonlyArray<Permission> = [
  "queues.read",
  "deposits.decide",
  "withdrawals.decide",
  "players.read",
  "players.note",
  "players.suspend",
  "markets.read"
]

const DIRECTOR_ONLY: ReadonlyArray<Permission> = ["staff.manage", "thresholds.manage", "audit.export"]

/** The table: DIRECTOR everything; ADMIN everything but staff accounts (and the thresholds the DIRECTOR sets, and the audit's export); SUPPORT_ADMIN the queues, players and read-only markets. */
export const ROLE_PERMISSIONS: Readonly<Record<StaffRole, ReadonlySet<Permission>>> = {
  [Roles.DIRECTOR]: new Set(PERMISSIONS),
  [Roles.ADMIN]: new Set(PERMISSIONS.filter((permission) => !DIRECTOR_ONLY.includes(permission))),
  [Roles.SUPPORT_ADMIN]: new Set(SUPPORT)
}

export const ROLE_NAMES: Readonly<Record<StaffRole, string>> = {
  [Roles.DIRECTOR]: "Director",
  [Roles.ADMIN]: "Admin",
  [Roles.SUPPORT_ADMIN]: "Support"
}

export const isStaffRole = (role: number): role is StaffRole => (STAFF_ROLES as ReadonlyArray<number>).includes(role)

/** Whether a role may do what a permission allows (false for every role that is not staff). */
export const can = (role: number, permission: Permission) => isStaffRole(role) && ROLE_PERMISSIONS[role].has(permission)

/** The permissions of a role, in the table's order (none for a role that is not staff). */
export const permissionsOf = (role: number): ReadonlyArray<Permission> => PERMISSIONS.filter((permission) => can(role, permission))

/** A second factor (TOTP) is required of these roles, optional for support. */
export const secondFactorRequired = (role: number) => role === Roles.DIRECTOR || role === Roles.ADMIN

/** Desk sessions end 12 hours after sign-in, or after 30 minutes without a request. */
export const DESK_SESSION_HOURS = 12
export const DESK_IDLE_MINUTES = 30

/**
 * Four eyes: an action of `amount` paise (a manual adjustment, or the
 * liability of a market being settled or voided) needs a second staff
 * member's approval when it is above the threshold the DIRECTOR set.
 */
export const needsSecondApprover = (amountPaise: number, thresholdPaise: number) => Math.abs(amountPaise) > thresholdPaise

/** Until the DIRECTOR sets them: adjustments above ₹10,000 and settlements of markets whose liability is above ₹50,000. */
export const DEFAULT_THRESHOLDS = { adjustmentPaise: 10_000_00, liabilityPaise: 50_000_00 } as const

/** How long a claim on a request holds without the staff member acting on it (then anyone may take it over). */
export const CLAIM_MINUTES = 15

/** Reasons a deposit is rejected, offered as a list (free text may follow). */
export const DEPOSIT_REJECT_REASONS = [
  "Payment not received",
  "Amount does not match the payment",
  "Reference already used",
  "Screenshot unreadable or edited",
  "Paid to the wrong account",
  "Third-party payment"
] as const

/** Reasons a withdrawal is rejected. */
export const WITHDRAWAL_REJECT_REASONS = [
  "Payout account details are wrong",
  "Account name does not match the player",
  "Bonus wagering not complete",
  "Under review by risk",
  "Requested by the player"
] as const

/** A rejection's remark: the reason chosen, then what the staff member typed. */
export const rejectionRemark = (reason: string, note: string) => [reason.trim(), note.trim()].filter((part) => part !== "").join(": ")

/** What the staff member who lost a race is told: who decided, and when (in India time). */
export const decidedBy = (what: string, status: string, by: string, at: Date | null) =>
  `This ${what} was already ${status} by ${by}${at ? ` at ${indiaMoment(at)}` : ""}.`
