import type { VitalName } from "../schema/vitals.ts"

/**
 * The most a real page load measures, per vital (milliseconds; CLS a score): a
 * value past it is kept as this, so one broken or hostile report moves a
 * percentile no further than a very slow real visit would.
 */
export const PLAUSIBLE_MAX: Readonly<Record<VitalName, number>> = { LCP: 30_000, INP: 10_000, TTFB: 30_000, CLS: 5 }

export const clampVital = (name: VitalName, value: number) => Math.min(PLAUSIBLE_MAX[name], Math.max(0, value))
