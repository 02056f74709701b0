import { Console, Effect } from "effect"
import { fixed2 } from "../../src/domain/money.ts"
import { LIMIT_KINDS, LIMIT_PERIODS, limitAmountProblem } from "../../src/domain/protection.ts"
import { isRegion, regionName } from "../../src/domain/regions.ts"
import type { ComplianceSettings, ComplianceSettingsUpdate } from "../../src/schema/protection.ts"
import { type AdminCommand, explain, registerCommand, UsageError } from "../admin/registry.ts"
import { CLI } from "./audit.ts"
import { Compliance } from "./Compliance.ts"
import { Protection } from "./Protection.ts"

const table = (rows: ReadonlyArray<Record<string, unknown>>) => (rows.length === 0 ? Console.log("(none)") : Console.table(rows))

const printSettings = (settings: ComplianceSettings) =>
  Effect.gen(function*() {
    yield* Console.log(`real-money deposits: ${settings.depositsOpen ? "open" : "closed (the site runs on demo credit)"}`)
    yield* Console.log(`blocked regions: ${settings.blockedRegions.length ? settings.blockedRegions.map((code) => `${code} (${regionName(code)})`).join(", ") : "none"}`)
    yield* Console.log(`region header from a trusted proxy: ${settings.regionHeader ?? "none"} (read only when the server runs with TRUST_PROXY on)`)
    yield* Console.log("default limits for new players:")
    yield* table(settings.defaultLimits.map((limit) => ({ kind: limit.kind, period: limit.period, amount: fixed2(limit.amount) })))
  })

const update = (change: ComplianceSettingsUpdate) =>
  Effect.gen(function*() {
    const compliance = yield* Compliance
    yield* printSettings(yield* explain(compliance.update(change, CLI)))
  })

const regionsOf = (args: ReadonlyArray<string>) => {
  const codes = args.map((arg) => arg.trim().toUpperCase().replace(/^IN-/, ""))
  if (codes.length === 0) throw new UsageError("Give one region code or more, e.g. TS AP.")
  const unknown = codes.filter((code) => !isRegion(code))
  if (unknown.length > 0) throw new UsageError(`Not a state or union territory of India: ${unknown.join(", ")}`)
  return codes as Array<ComplianceSettings["blockedRegions"][number]>
}

export const showProtection: AdminCommand = {
  name: "protection",
  usage: "<username>",
  description: "A player's protection: limits in force and pending changes, reality check, time-out, self-exclusion, the audit trail.",
  run: (args) =>
    Effect.gen(function*() {
      const [username] = args
      if (!username) throw new UsageError("Give the player's username (or id).")
      const view = yield* explain((yield* Protection).playerView(username))
      const { user, protection } = view
      yield* Console.log(`player: ${user.username} (${user.name}), id ${user.id}`)
      yield* Console.log(`region: ${user.region ? `${user.region} (${regionName(user.region)})` : "not declared"}; 18+ confirmed: ${user.ageConfirmedAt ?? "no"}`)
      yield* Console.log(`play: ${protection.closed ? `closed (${protection.closed.reason}): ${protection.closed.message}` : "open"}`)
      yield* Console.log("limits:")
      yield* table(protection.limits.filter((limit) => limit.amount !== null || limit.pending !== null).map((limit) => ({
        kind: limit.kind,
        period: limit.period,
        inForce: limit.amount === null ? "none" : fixed2(limit.amount),
        since: limit.inForceSince ?? "",
        used: fixed2(limit.used),
        remaining: limit.remaining === null ? "" : fixed2(limit.remaining),
        pending: limit.pending ? (limit.pending.amount === null ? "removal" : fixed2(limit.pending.amount)) : "",
        confirmableFrom: limit.pending?.confirmableAt ?? ""
      })))
      const check = protection.realityCheck
      yield* Console.log(`reality check: ${check.minutes === 0 ? "off" : `every ${check.minutes} minutes, next ${check.nextAt}`}; session since ${check.sessionStartedAt}, net ${fixed2(check.netResult)}`)
      yield* Console.log(`time-out: ${protection.timeOut ? `${protection.timeOut.startedAt} until ${protection.timeOut.until}` : "none"}`)
      const exclusion = protection.selfExclusion
      yield* Console.log(`self-exclusion: ${exclusion ? `${exclusion.startedAt} until ${exclusion.until}${exclusion.returnsAt ? `; reopens ${exclusion.returnsAt}` : ""}` : "none"}`)
      yield* Console.log("audit (newest first):")
      yield* table(view.audit.slice(0, 20).map((entry) => ({ at: entry.at, actor: entry.actor, action: entry.action, ip: entry.ip ?? "", detail: JSON.stringify(entry.detail) })))
    })
}

export const showSettings: AdminCommand = {
  name: "protection-settings",
  usage: "",
  description: "The compliance switches: real-money deposits, blocked regions, the trusted proxy's region header, default limits.",
  run: () => Effect.flatMap(Compliance.use((compliance) => compliance.settings), printSettings)
}

export const blockRegion: AdminCommand = {
  name: "block-region",
  usage: "<code> [code…]",
  description: "Stops serving states (ISO 3166-2:IN codes, e.g. TS): their sign-ups are refused, their players cannot bet, play or deposit.",
  run: (args) =>
    Effect.gen(function*() {
      const codes = regionsOf(args)
      const current = yield* Compliance.use((compliance) => compliance.settings)
      yield* update({ blockedRegions: [...current.blockedRegions, ...codes] })
    })
}

export const unblockRegion: AdminCommand = {
  name: "unblock-region",
  usage: "<code> [code…]",
  description: "Serves states again.",
  run: (args) =>
    Effect.gen(function*() {
      const codes = regionsOf(args)
      const current = yield* Compliance.use((compliance) => compliance.settings)
      yield* update({ blockedRegions: current.blockedRegions.filter((code) => !codes.includes(code)) })
    })
}

export const realMoneyDeposits: AdminCommand = {
  name: "real-money-deposits",
  usage: "<open|closed>",
  description: "Opens or closes real-money deposits (closed: the site runs on demo credit from `credit`).",
  run: (args) =>
    Effect.suspend(() => {
      const [state] = args
      if (state !== "open" && state !== "closed") throw new UsageError("Say open or closed.")
      return update({ depositsOpen: state === "open" })
    })
}

export const regionHeader: AdminCommand = {
  name: "region-header",
  usage: "<header|none>",
  description: "The request header a geolocating proxy puts the visitor's region in (e.g. cf-region-code); used only with TRUST_PROXY on.",
  run: (args) =>
    Effect.suspend(() => {
      const [header] = args
      if (!header) throw new UsageError("Give a header name, or none.")
      const name = header.toLowerCase()
      if (name !== "none" && !/^[a-z0-9-]{1,64}$/.test(name)) throw new UsageError("A header name is letters, digits and dashes.")
      return update({ regionHeader: name === "none" ? null : name })
    })
}

export const defaultLimit: AdminCommand = {
  name: "default-limit",
  usage: "<deposit|loss> <day|week|month> <rupees|none>",
  description: "A limit every new player starts with (players can lower it at once, or raise it after the 24-hour cooling-off).",
  run: (args) =>
    Effect.gen(function*() {
      const [kind, period, amount] = args
      if (!LIMIT_KINDS.includes(kind as never) || !LIMIT_PERIODS.includes(period as never) || !amount) {
        throw new UsageError("Give the kind (deposit or loss), the period (day, week or month) and an amount in rupees, or none.")
      }
      const rupees = Number(amount)
      const problem = amount === "none" ? undefined : limitAmountProblem(rupees)
      if (problem) throw new UsageError(problem)
      const current = yield* Compliance.use((compliance) => compliance.settings)
      const others = current.defaultLimits.filter((limit) => !(limit.kind === kind && limit.period === period))
      yield* update({
        defaultLimits: amount === "none" ? others : [...others, { kind: kind as "deposit" | "loss", period: period as "day" | "week" | "month", amount: rupees }]
      })
    })
}

registerCommand(showProtection, showSettings, blockRegion, unblockRegion, realMoneyDeposits, regionHeader, defaultLimit)
