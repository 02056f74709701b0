/**
 * The desk's settings screen (docs/backoffice.md): what its forms' fields
 * become in the settings calls, and the checks made before sending (the
 * server checks again). Fields are the record machine's strings.
 */
import { isRegion, type Region } from "./regions.ts"
import { LIMIT_KINDS, LIMIT_PERIODS, limitAmountProblem, type LimitKind, type LimitPeriod } from "./protection.ts"
import { isStaffRole } from "./staff.ts"

type Fields = Readonly<Record<string, string>>

type Limit = {
  readonly kind: LimitKind
  readonly period: LimitPeriod
  readonly amount: number
}

/** The protection settings the desk changes (src/schema/protection.ts `ComplianceSettings`). */
type Protection = {
  readonly blockedRegions: ReadonlyArray<Region>
  readonly depositsOpen: boolean
  readonly defaultLimits: ReadonlyArray<Limit>
}

const limitOf = (fields: Fields) => {
  const kind = LIMIT_KINDS.find((k) => k === fields.kind)
  const period = LIMIT_PERIODS.find((p) => p === fields.period)
  return kind && period ? { kind, period } : undefined
}

/** A default limit's amount: "" removes it. */
const limitProblem = (fields: Fields) =>
  !limitOf(fields) ? "Choose the kind and the period." : (fields.amount ?? "").trim() === "" ? undefined : limitAmountProblem(Number(fields.amount))

/**
 * What a protection command asks the server to change: block or unblock a
 * region, open or close real-money deposits, set (or with no amount remove)
 * a default limit — as `npm run admin -- block-region` and the rest do.
 */
export const protectionUpdate = (command: string, fields: Fields, current: Protection): Partial<Protection> => {
  const region = fields.region as Region
  switch (command) {
    case "block":
      return { blockedRegions: [...current.blockedRegions.filter((code) => code !== region), region] }
    case "unblock":
      return { blockedRegions: current.blockedRegions.filter((code) => code !== region) }
    case "deposits":
      return { depositsOpen: fields.depositsOpen === "open" }
    default: {
      const { kind, period } = limitOf(fields)!
      const others = current.defaultLimits.filter((limit) => !(limit.kind === kind && limit.period === period))
      const amount = (fields.amount ?? "").trim()
      return { defaultLimits: amount === "" ? others : [...others, { kind, period, amount: Number(amount) }] }
    }
  }
}

/** A staff account as the DIRECTOR's commands see it. */
interface StaffAccount {
  readonly id: string
}

const required = (fields: Fields, names: ReadonlyArray<string>) => (names.some((name) => (fields[name] ?? "").trim() === "") ? "Fill in every field." : undefined)

const staffOf = (fields: Fields, accounts: ReadonlyArray<StaffAccount>) => (accounts.some((account) => account.id === fields.staff) ? undefined : "Choose a staff account.")

/** The rules of the settings screen's records, by command. */
export const settingsRules = {
  protection: {
    block: (fields: Fields, current: Protection) =>
      !isRegion(fields.region ?? "") ? "Choose a state." : current.blockedRegions.includes(fields.region as Region) ? "That state is already blocked." : undefined,
    unblock: (fields: Fields, current: Protection) => (current.blockedRegions.includes(fields.region as Region) ? undefined : "That state is not blocked."),
    deposits: (fields: Fields) => (fields.depositsOpen === "open" || fields.depositsOpen === "closed" ? undefined : "Say open or closed."),
    limit: (fields: Fields) => limitProblem(fields)
  },
  staff: {
    create: (fields: Fields) => required(fields, ["name", "username", "mobileNo", "role", "password"]) ?? (isStaffRole(Number(fields.role)) ? undefined : "Choose a role."),
    role: (fields: Fields, accounts: ReadonlyArray<StaffAccount>) => staffOf(fields, accounts) ?? (isStaffRole(Number(fields.role)) ? undefined : "Choose a role."),
    suspend: staffOf,
    reactivate: staffOf,
    resetSecondFactor: staffOf
  }
}
