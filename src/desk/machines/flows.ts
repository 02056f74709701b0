import type { ActorRefFrom } from "xstate"
import type { DepositDetail, DeskDeposit, DeskWithdrawal, WithdrawalDetail } from "../../schema/desk/queues.ts"
import type { DeskSession } from "../../schema/desk/staff.ts"
import type { DeskChanged } from "../../schema/realtime.ts"
import type { IntegritySignal } from "../../schema/integrity.ts"
import { listMachine } from "./list.machine.ts"
import { queueMachine } from "./queue.machine.ts"
import { recordMachine } from "./record.machine.ts"

/**
 * The desk's flows by name: the machine each screen opens (`flow.open`) and
 * the topics of the desk's socket it hears. The composition root
 * (src/desk/root/flows.ts) provides each with its calls.
 */
/** A deposit as the desk shows it: its detail and its screenshot (a data URL), loaded together. */
export type DepositView = DepositDetail & { readonly image: string | null }
export const depositQueue = queueMachine<DeskDeposit, DepositView>()
export const withdrawalQueue = queueMachine<DeskWithdrawal, WithdrawalDetail>()
/** The staff member's own sessions (the account screen). */
export const sessionsRecord = recordMachine<ReadonlyArray<DeskSession>>()
/** Integrity signals: reused references, payout accounts, devices and addresses shared between players. */
export const signalsList = listMachine<IntegritySignal>()

export interface DeskFlows {
  readonly deposits: typeof depositQueue
  readonly withdrawals: typeof withdrawalQueue
  readonly sessions: typeof sessionsRecord
  readonly signals: typeof signalsList
}

export type DeskFlowName = keyof DeskFlows
export type DeskFlowRef<K extends DeskFlowName> = ActorRefFrom<DeskFlows[K]>

const TOPICS: Readonly<Record<DeskFlowName, ReadonlyArray<DeskChanged["topic"]>>> = {
  deposits: ["deposits"],
  withdrawals: ["withdrawals"],
  sessions: [],
  signals: []
}

export const topicsOf = (flow: DeskFlowName) => TOPICS[flow]
