import type { AnyActorLogic, AnyStateMachine } from "xstate"
import { Effect } from "effect"
import { AdminApi } from "../../schema/admin.ts"
import { DeskQueuesApi } from "../../schema/desk/queues.ts"
import { DeskAccountApi } from "../../schema/desk/staff.ts"
import type { DeskDeposit, DeskWithdrawal } from "../../schema/desk/queues.ts"
import { IntegrityAdminApi, type IntegritySignal } from "../../schema/integrity.ts"
import { adjustmentsList, auditList, type DeskFlowName, depositQueue, playerRecord, playersList, sessionsRecord, signalsList, withdrawalQueue } from "../machines/flows.ts"
import { type AdjustmentApproval, DeskPlayersApi, type DeskPlayer } from "../../schema/desk/players.ts"
import type { QueueCommand, QueueKind } from "../machines/queue.machine.ts"
import type { Page, PageRequest } from "../machines/list.machine.ts"
import type { RecordCommand } from "../machines/record.machine.ts"
import type { Failure } from "../../schema/errors.ts"
import { DeskApi, DeskFailure } from "../services/api.ts"
import { DeskAuditApi } from "../../schema/desk/audit.ts"
import type { AuditEntry } from "../../schema/desk/audit.ts"
import { type Answer, data, deskToasts, plain, task, written } from "./runtime.ts"
import type { Written } from "../../machines/writes.ts"
import { market, markets, risk, today } from "./marketFlows.ts"
import { banners, bonusRules, depositAccounts, protection, site, staff } from "./settingsFlows.ts"
import { casino, rounds } from "./casinoFlows.ts"

/**
 * Every desk flow with its world: the calls of the shared API each machine's
 * actors make. The root actor spawns these (src/desk/root/desk.ts).
 */
const queues = DeskQueuesApi.endpoints
const admin = AdminApi.endpoints
const account = DeskAccountApi.endpoints

const pageQuery = ({ query, after }: PageRequest) => ({ ...query, ...(after !== undefined ? { after } : {}) })

/** Claim, let go, approve (a withdrawal: paid, with the bank's reference) or reject: the server decides; its message shows as a toast. */
const act = (command: QueueCommand): Effect.Effect<Written, Failure, DeskApi> =>
  written(DeskApi.use((api) =>
    Effect.gen(function*(): Effect.fn.Return<Answer, DeskFailure> {
      const params = { id: command.id }
      const deposit = command.kind === "deposit"
      const decision = { idempotencyKey: command.key }
      switch (command.action) {
        case "claim":
          return yield* api.call(deposit ? queues.claimDeposit : queues.claimWithdrawal, { params })
        case "release":
          return yield* api.call(deposit ? queues.releaseDeposit : queues.releaseWithdrawal, { params })
        case "approve":
          return yield* api.call(deposit ? admin.approveDeposit : admin.approveWithdrawal, { params, payload: command.reference ? { reference: command.reference, remark: `Paid, reference ${command.reference}` } : {} }, decision)
        case "reject":
          return yield* api.call(deposit ? admin.rejectDeposit : admin.rejectWithdrawal, { params, payload: command.remark ? { remark: command.remark } : {} }, decision)
      }
    })
  ))

const deposits = depositQueue.provide({
  actors: {
    loadPage: task<Page<DeskDeposit>, PageRequest & { readonly kind: QueueKind }>((request) => data(DeskApi.use((api) => api.call(queues.deposits, { query: pageQuery(request) })))),
    loadDetail: task(({ id }) =>
      data(DeskApi.use((api) =>
        Effect.gen(function*() {
          const detail = yield* api.call(queues.deposit, { params: { id } })
          const shot = detail.data.deposit.screenshot
          const image = shot === null ? null : (yield* api.call(queues.screenshot, { params: { id: shot } })).data.image
          return { ...detail, data: { ...detail.data, image } }
        })
      ))
    ),
    act: task(act)
  }
})

const withdrawals = withdrawalQueue.provide({
  actors: {
    loadPage: task<Page<DeskWithdrawal>, PageRequest & { readonly kind: QueueKind }>((request) => data(DeskApi.use((api) => api.call(queues.withdrawals, { query: pageQuery(request) })))),
    loadDetail: task(({ id }) => data(DeskApi.use((api) => api.call(queues.withdrawal, { params: { id } })))),
    act: task(act)
  }
})

const sessions = sessionsRecord.provide({
  actors: {
    load: task(() => data(DeskApi.use((api) => api.call(account.sessions, {})))),
    run: task<Written, RecordCommand>(({ fields }) => written(DeskApi.use((api) => api.call(account.endSession, { params: { id: fields.session ?? "" } }))))
  }
})

const signals = signalsList.provide({
  actors: {
    // The server pages signals newest first by the last one's id, without a count.
    load: task<Page<IntegritySignal>, PageRequest>(({ query, after }) =>
      data(DeskApi.use((api) =>
        Effect.map(api.call(IntegrityAdminApi.endpoints.signals, { query: { ...query, ...(after !== undefined ? { before: after } : {}) } }), (envelope) => ({
          ...envelope,
          data: { items: envelope.data.signals, next: envelope.data.next, total: null }
        }))
      ))
    )
  }
})

const playerCalls = DeskPlayersApi.endpoints

const players = playersList.provide({
  actors: {
    load: task<Page<DeskPlayer>, PageRequest>((request) => data(DeskApi.use((api) => api.call(playerCalls.search, { query: pageQuery(request) }))))
  }
})

/**
 * A player's commands: a note, suspend or reactivate with the reason, end their sessions, credit or debit, approve or
 * decline a large adjustment (money under the attempt's key).
 */
const player = playerRecord.provide({
  actors: {
    load: task((id: string) => data(DeskApi.use((api) => api.call(playerCalls.player, { params: { id } })))),
    run: task<Written, RecordCommand>(({ id, command, fields, key }) =>
      written(DeskApi.use((api) =>
        Effect.gen(function*(): Effect.fn.Return<Answer, DeskFailure> {
          const params = { id }
          const reason = fields.reason ?? ""
          switch (command) {
            case "note":
              return yield* api.call(playerCalls.note, { params, payload: { body: fields.note ?? "" } })
            case "suspend":
            case "reactivate":
              return yield* api.call(playerCalls.status, { params, payload: { status: command === "suspend" ? "suspended" : "active", reason } })
            case "credit":
            case "debit":
              return yield* api.call(playerCalls.adjust, { params, payload: { direction: command, amount: Number(fields.amount ?? ""), reason } }, { idempotencyKey: key })
            case "endSessions":
              return yield* api.call(playerCalls.endSessions, { params })
            case "approve":
            case "decline": {
              const decision = { params: { id: fields.approval ?? "" }, payload: { remark: fields.remark?.trim() ?? "" } }
              return yield* api.call(command === "approve" ? playerCalls.approveAdjustment : playerCalls.declineAdjustment, decision, { idempotencyKey: key })
            }
            default:
              return yield* new DeskFailure({ code: 0, message: `The desk has no command "${command}".`, reason: "InvalidInput" })
          }
        })
      ))
    )
  }
})

const adjustments = adjustmentsList.provide({
  actors: {
    load: task<Page<AdjustmentApproval>, PageRequest>((request) => data(DeskApi.use((api) => api.call(playerCalls.adjustments, { query: pageQuery(request) }))))
  }
})

const auditCalls = DeskAuditApi.endpoints

/** The audit trail's search, and its CSV (every match) offered as a download named by the day. */
const audit = auditList.provide({
  actors: {
    load: task<Page<AuditEntry>, PageRequest>((request) => data(DeskApi.use((api) => api.call(auditCalls.search, { query: pageQuery(request) })))),
    export: task<string, PageRequest>((request) => Effect.mapError(DeskApi.use((api) => api.call(auditCalls.export, { query: pageQuery(request) })), plain))
  },
  actions: {
    save: (_, { text }: { text: string }) => {
      const link = document.createElement("a")
      link.href = URL.createObjectURL(new Blob([text], { type: "text/csv;charset=utf-8" }))
      link.download = `khel-audit-${new Date().toISOString().slice(0, 10)}.csv`
      link.click()
      setTimeout(() => URL.revokeObjectURL(link.href), 60_000)
    }
  }
})

const FLOWS: Readonly<Record<DeskFlowName, AnyActorLogic>> = { deposits, withdrawals, sessions, signals, players, player, adjustments, audit, risk, markets, market, today, site, bonusRules, depositAccounts, protection, staff, banners, casino, rounds }

/** Each flow with its calls and the desk's toasts on their outcomes. */
export const flowLogic = (flow: DeskFlowName): AnyActorLogic => (FLOWS[flow] as AnyStateMachine).provide({ actions: deskToasts })
