import { cashOutMachine } from "../../machines/cashOut.machine.ts"
import type { Failure } from "../../schema/errors.ts"
import { lazyTask } from "../lazyTask.ts"

/** The calls load with their chunk (and the Effect runtime) when a Cash Out button is first clicked. */
const calls = () => import("./cashOutCalls.ts")

/** Cash out with its calls: the player's betting setting, the quote, the cash out and the auto cash-out rule (src/root/flows/cashOutCalls.ts). */
export default cashOutMachine.provide({
  actors: {
    loadSetting: lazyTask(calls, (c) => c.loadSetting),
    quote: lazyTask(calls, (c) => c.quote),
    cashOut: lazyTask(calls, (c) => c.cashOut),
    loadAutoRule: lazyTask(calls, (c) => c.loadAutoRule),
    saveAutoRule: lazyTask(calls, (c) => c.saveAutoRule)
  },
  // Only a call's answer toasts, and its chunk is loaded by then.
  actions: {
    toastSuccess: (_, params: { message: string }) => void calls().then((c) => c.toastSuccess(_, params)),
    toastFailure: (_, params: { error: Failure }) => void calls().then((c) => c.toastFailure(_, params))
  }
})
