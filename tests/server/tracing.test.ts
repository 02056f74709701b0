import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bet, catalogue, eventsOf, marketOf, priceOf } from "./betting-support.ts"
import { loginAs, useServer } from "./helpers.ts"

/** A span as OTLP/HTTP JSON carries it. */
interface OtlpSpan {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly name: string
  readonly kind: number
  readonly attributes?: ReadonlyArray<{ readonly key: string; readonly value: { readonly stringValue?: string; readonly intValue?: string | number } }>
}

/** A local OTLP receiver: what a collector (Jaeger, Tempo, the OpenTelemetry Collector) would get. */
const receiver = () => {
  const spans: Array<OtlpSpan> = []
  const resources: Array<unknown> = []
  const server: Server = createServer((request, response) => {
    let body = ""
    request.on("data", (chunk: Buffer) => (body += chunk.toString()))
    request.on("end", () => {
      if (request.method === "POST" && request.url === "/v1/traces") {
        const payload = JSON.parse(body) as { resourceSpans: Array<{ resource: unknown; scopeSpans: Array<{ spans: Array<OtlpSpan> }> }> }
        for (const resourceSpans of payload.resourceSpans) {
          resources.push(resourceSpans.resource)
          for (const scope of resourceSpans.scopeSpans) spans.push(...scope.spans)
        }
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  return { spans, resources, server }
}

const attribute = (span: OtlpSpan, key: string) => span.attributes?.find((a) => a.key === key)?.value.stringValue

/** Polls for spans the exporter sends in batches (every few seconds): the real condition, with a generous deadline. */
const waitFor = async <A>(what: string, find: () => A | undefined, deadlineMs = 60_000) => {
  const end = performance.now() + deadlineMs
  for (;;) {
    const found = find()
    if (found !== undefined) return found
    if (performance.now() > end) throw new Error(`no ${what} reached the receiver`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

const collector = receiver()
beforeAll(async () => {
  await new Promise<void>((resolve) => collector.server.listen(0, "127.0.0.1", resolve))
})
afterAll(() => {
  collector.server.close()
})
const server = useServer({ config: () => ({ otlpTracesUrl: `http://127.0.0.1:${(collector.server.address() as AddressInfo).port}/v1/traces`, serverId: "trace-test" }) })

describe("traces over OTLP", () => {
  it("sends a bet's span tree, and a refusal's trace id is the one its envelope names", async () => {
    const { token } = await loginAs(server, "demo")
    const event = eventsOf(await catalogue(server), "cricket", false)[0]!
    const market = marketOf(event, "EXCHANGE")
    const runner = market.runners[0]!
    const price = await priceOf(server, event._id, market.marketId, runner.selectionId)
    expect((await bet(server, token, "bet-sport", { marketId: market.marketId, selectionId: runner.selectionId, selectionType: "back", odds: price.back.price, stake: 100 })).status).toBe(200)

    // The request's server span, by its route; under it, the service's span and its SQL statements.
    const root = await waitFor("bet request span", () => collector.spans.find((s) => attribute(s, "http.route") === "/api/v1/bet-sport"))
    expect(attribute(root, "http.request.method")).toBe("POST")
    const tree = () => {
      const inTrace = collector.spans.filter((s) => s.traceId === root.traceId)
      const below = new Set([root.spanId])
      for (let grew = true; grew;) {
        grew = false
        for (const span of inTrace) {
          if (span.parentSpanId && below.has(span.parentSpanId) && !below.has(span.spanId)) {
            below.add(span.spanId)
            grew = true
          }
        }
      }
      return inTrace.filter((s) => below.has(s.spanId))
    }
    const place = await waitFor("Betting.place span", () => tree().find((s) => s.name === "Betting.place"))
    await waitFor("a SQL statement under the bet", () => tree().find((s) => s.parentSpanId !== undefined && attribute(s, "db.system.name") === "postgresql" && s.spanId !== place.spanId))
    expect(collector.resources[0]).toMatchObject({ attributes: expect.arrayContaining([{ key: "service.name", value: { stringValue: "khel" } }]) })

    // A refusal: its envelope's trace id finds its spans.
    const refused = await bet(server, token, "bet-sport", { marketId: market.marketId, selectionId: runner.selectionId, selectionType: "back", odds: price.back.price, stake: 99 })
    const traceId = refused.body.meta.traceId as string
    expect(traceId).toMatch(/^[0-9a-f]{32}$/)
    await waitFor("the refused bet's spans", () => collector.spans.find((s) => s.traceId === traceId && s.name === "Betting.place"))
  })
})
