import type { FlowName, Flows } from "../../machines/flows.ts"

/** The chunk that provides each flow (src/root/flows.ts loads one when a view first opens its flow, or a page will). */
export const loaders: { readonly [K in FlowName]: () => Promise<{ readonly default: Flows[K] }> } = {
  authModal: () => import("./authModal.ts"),
  withdrawal: () => import("./withdrawal.ts"),
  betSlip: () => import("./betSlip.ts"),
  cashOut: () => import("./cashOut.ts"),
  casino: () => import("./casino.ts"),
  liveEvent: () => import("./liveEvent.ts"),
  livePanel: () => import("./livePanel.ts"),
  priceChart: () => import("./priceChart.ts"),
  myBets: () => import("./myBets.ts"),
  racing: () => import("./racing.ts"),
  results: () => import("./results.ts"),
  deposit: () => import("./deposit.ts"),
  bonus: () => import("./bonus.ts"),
  referral: () => import("./referral.ts"),
  statement: () => import("./statement.ts"),
  casinoBets: () => import("./casinoBets.ts"),
  protection: () => import("./protection.ts"),
  appUpdate: () => import("./appUpdate.ts"),
  install: () => import("./install.ts"),
  notifications: () => import("./notifications.ts")
}
