import { Effect } from "effect"
import { DeskMarketsApi, type RiskMarket } from "../../schema/desk/markets.ts"
import { DeskReportsApi } from "../../schema/desk/reports.ts"
import { marketRecord, riskMarkets, riskSummary, todayRecord } from "../machines/flows.ts"
import type { Page, PageRequest } from "../machines/list.machine.ts"
import type { RecordCommand } from "../machines/record.machine.ts"
import { DeskApi, type DeskFailure } from "../services/api.ts"
import { type Answer, data, task, written } from "./runtime.ts"
import type { Written } from "../../machines/writes.ts"
import type { Failure } from "../../schema/errors.ts"

/** Markets and risk with their world: the calls of src/schema/desk/markets.ts (composed in src/desk/root/flows.ts). */
const api = DeskMarketsApi.endpoints

/** A price level typed on the desk; the size offered at it defaults to ₹10,000. */
const level = (price: string | undefined, size: string | undefined) =>
  price?.trim() ? { price: Number(price), size: size?.trim() ? Number(size) : 10_000 } : undefined

/** A market command or a decision on a request: the server decides (four eyes above the threshold); its message shows as a toast. */
const run = (command: RecordCommand): Effect.Effect<Written, Failure, DeskApi> =>
  written(DeskApi.use((desk) =>
    Effect.gen(function*(): Effect.fn.Return<Answer, DeskFailure> {
      const { fields } = command
      const market = { params: { id: command.id } }
      const once = { idempotencyKey: command.key }
      const decision = { params: { id: fields.approval ?? "" }, payload: { remark: fields.remark?.trim() ?? "" } }
      switch (command.command) {
        case "suspend":
        case "resume":
          return yield* desk.call(api.status, { ...market, payload: { status: command.command === "suspend" ? "SUSPENDED" : "OPEN" } })
        case "price": {
          const back = level(fields.back, fields.size)
          const lay = level(fields.lay, fields.size)
          return yield* desk.call(api.price, { ...market, payload: { selectionId: fields.selection ?? "", ...(back ? { back } : {}), ...(lay ? { lay } : {}) } })
        }
        case "settle":
          return yield* desk.call(api.settle, { ...market, payload: { result: (fields.result ?? "").trim() } }, once)
        case "void":
          return yield* desk.call(api.void, { ...market, payload: { reason: (fields.reason ?? "").trim() } }, once)
        case "approve":
          return yield* desk.call(api.approve, decision, once)
        default:
          return yield* desk.call(api.decline, decision, once)
      }
    })
  ))

export const risk = riskSummary.provide({
  actors: {
    load: task(() => data(DeskApi.use((desk) => desk.call(api.risk, {})))),
    run: task(run)
  }
})

export const markets = riskMarkets.provide({
  actors: {
    load: task<Page<RiskMarket>, PageRequest>(({ query, after }) =>
      data(DeskApi.use((desk) => desk.call(api.markets, { query: { ...query, ...(after !== undefined ? { after } : {}) } })))
    )
  }
})

export const market = marketRecord.provide({
  actors: {
    load: task((id: string) => data(DeskApi.use((desk) => desk.call(api.market, { params: { id } })))),
    run: task(run)
  }
})

export const today = todayRecord.provide({
  actors: {
    // Read only: the screen runs no commands.
    load: task(() => data(DeskApi.use((desk) => desk.call(DeskReportsApi.endpoints.today, {}))))
  }
})
