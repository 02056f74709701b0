/** One sample of Prometheus' text format: `name{label="value",…} 12.5`. */
export interface Sample {
  readonly name: string
  readonly labels: Readonly<Record<string, string>>
  readonly value: number
}

/** Reads Prometheus' text format (what GET /metrics serves) into samples; comments and blank lines are skipped. */
export const parseMetrics = (text: string): ReadonlyArray<Sample> =>
  text.split("\n").filter((line) => line !== "" && !line.startsWith("#")).map((line) => {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!match) throw new Error(`not a Prometheus sample: ${line}`)
    const labels = Object.fromEntries([...(match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]))
    return { name: match[1]!, labels, value: match[3] === "+Inf" ? Infinity : Number(match[3]) }
  })

/** The metrics a server serves now. */
export const scrape = async (metricsUrl: string) => {
  const res = await fetch(`${metricsUrl}/metrics`)
  if (res.status !== 200) throw new Error(`GET /metrics answered ${res.status}`)
  return parseMetrics(await res.text())
}

/** The value of the one series of `name` whose labels include `labels` (undefined when there is none). */
export const valueOf = (samples: ReadonlyArray<Sample>, name: string, labels: Readonly<Record<string, string>> = {}) => {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} names ${found.length} series`)
  return found[0]?.value
}

/** Every name served, with each histogram's own name beside its `_bucket`, `_sum` and `_count`. */
export const namesOf = (samples: ReadonlyArray<Sample>) => {
  const names = new Set(samples.map((s) => s.name))
  for (const name of [...names]) if (name.endsWith("_bucket")) names.add(name.slice(0, -"_bucket".length))
  return names
}
