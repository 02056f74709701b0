import { Console, Effect } from "effect"
import type { VitalName } from "../../src/schema/vitals.ts"
import { type AdminCommand, registerCommand, UsageError } from "../admin/registry.ts"
import { Vitals } from "./Vitals.ts"

/** web.dev's thresholds: at most `good` is good, above `poor` is poor. */
const THRESHOLDS: Record<VitalName, { good: number; poor: number; unit: string }> = {
  LCP: { good: 2500, poor: 4000, unit: "ms" },
  INP: { good: 200, poor: 500, unit: "ms" },
  CLS: { good: 0.1, poor: 0.25, unit: "" },
  TTFB: { good: 800, poor: 1800, unit: "ms" }
}
const NAMES: ReadonlyArray<VitalName> = ["LCP", "INP", "CLS", "TTFB"]

const cell = (name: VitalName, value: number | undefined) => {
  if (value === undefined) return "-"
  const { good, poor, unit } = THRESHOLDS[name]
  const rating = value <= good ? "good" : value <= poor ? "needs work" : "poor"
  return `${name === "CLS" ? value.toFixed(3) : Math.round(value)}${unit} ${rating}`
}

const vitals: AdminCommand = {
  name: "vitals",
  usage: "[--days N]",
  description: "Real-user vitals of the last N days (7 by default): the 75th percentile of LCP, INP, CLS and TTFB per route and device class.",
  run: (args) =>
    Effect.gen(function*() {
      const index = args.indexOf("--days")
      const days = index === -1 ? 7 : Number(args[index + 1])
      if (!Number.isInteger(days) || days < 1 || days > 365) throw new UsageError("--days takes a whole number of days from 1 to 365")
      const lines = yield* Vitals.use((v) => v.report(days))
      yield* Console.log(`Real-user vitals, last ${days} day${days === 1 ? "" : "s"}: 75th percentile per route and device class`)
      if (lines.length === 0) return yield* Console.log("(no reports yet)")
      const rows = [
        ["route", "device", "visitors", ...NAMES.map((name) => `${name} p75`)],
        ...lines.map((line) => [line.route, line.device, String(line.samples), ...NAMES.map((name) => cell(name, line.p75[name]))])
      ]
      const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)))
      for (const [n, row] of rows.entries()) {
        yield* Console.log(row.map((text, i) => (i < 2 ? text.padEnd(widths[i]!) : text.padStart(widths[i]!))).join("  "))
        if (n === 0) yield* Console.log(widths.map((w) => "-".repeat(w)).join("  "))
      }
    }).pipe(Effect.provide(Vitals.layer))
}

registerCommand(vitals)
