import type { ActorRefFrom, InputFrom } from "xstate"
import type { appUpdateMachine } from "./appUpdate.machine.ts"
import type { authModalMachine } from "./authModal.machine.ts"
import type { betSlipMachine } from "./betSlip.machine.ts"
import type { cashOutMachine } from "./cashOut.machine.ts"
import type { bonusMachine } from "./bonus.machine.ts"
import type { casinoMachine } from "./casino.machine.ts"
import type { casinoBetsMachine } from "./casinoBets.machine.ts"
import type { depositMachine } from "./deposit.machine.ts"
import type { installMachine } from "./install.machine.ts"
import type { liveEventMachine } from "./liveEvent.machine.ts"
import type { livePanelMachine } from "./livePanel.machine.ts"
import type { myBetsMachine } from "./myBets.machine.ts"
import type { notificationsMachine } from "./notifications.machine.ts"
import type { protectionMachine } from "./protection.machine.ts"
import type { priceChartMachine } from "./priceChart.machine.ts"
import type { racingMachine } from "./racing.machine.ts"
import type { referralMachine } from "./referral.machine.ts"
import type { resultsMachine } from "./results.machine.ts"
import type { statementMachine } from "./statement.machine.ts"
import type { withdrawalMachine } from "./withdrawal.machine.ts"

/**
 * The flows views open in the app's actor system, by name. Each is a pure
 * machine; the composition root (src/root/flows.ts) loads the logic it
 * provides for each name with the route that needs it, and the app machine
 * spawns it on `flow.open` with the id the view gives as its system id.
 */
export interface Flows {
  readonly authModal: typeof authModalMachine
  readonly withdrawal: typeof withdrawalMachine
  readonly betSlip: typeof betSlipMachine
  /** Cash out of a market's position (the event page's Cash Out buttons). */
  readonly cashOut: typeof cashOutMachine
  readonly casino: typeof casinoMachine
  readonly liveEvent: typeof liveEventMachine
  readonly livePanel: typeof livePanelMachine
  /** An exchange market's price chart on the event page (opened with the id `chart.<marketId>`). */
  readonly priceChart: typeof priceChartMachine
  readonly myBets: typeof myBetsMachine
  readonly racing: typeof racingMachine
  /** /results: the markets settled in the last 7 days. */
  readonly results: typeof resultsMachine
  readonly deposit: typeof depositMachine
  readonly bonus: typeof bonusMachine
  readonly referral: typeof referralMachine
  /** /statements and /profit-loss (opened with the ids `statements` and `profitLoss`). */
  readonly statement: typeof statementMachine
  readonly casinoBets: typeof casinoBetsMachine
  readonly protection: typeof protectionMachine
  /** The installable app's worker and its update prompt, open for the whole visit. */
  readonly appUpdate: typeof appUpdateMachine
  /** Adding the site to the home screen, open for the whole visit. */
  readonly install: typeof installMachine
  /** A signed-in player's notifications on this browser. */
  readonly notifications: typeof notificationsMachine
}

export type FlowName = keyof Flows
export type FlowInput<K extends FlowName> = InputFrom<Flows[K]>
export type FlowRef<K extends FlowName> = ActorRefFrom<Flows[K]>

/** Opens a flow, or counts one more view of it: `id` is its id and system id, `input` plain data. */
export type FlowOpen = {
  [K in FlowName]: { readonly type: "flow.open"; readonly id: string; readonly flow: K; readonly input: FlowInput<K> }
}[FlowName]

/** A view of the flow is gone; the last one stops it. */
export interface FlowClose {
  readonly type: "flow.close"
  readonly id: string
}
