import { activityMachine } from "../../machines/activity.machine.ts"
import { type ProtectionCommand, protectionMachine } from "../../machines/protection.machine.ts"
import { realityCheckMachine } from "../../machines/realityCheck.machine.ts"
import { ProtectionApi } from "../../schema/protection.ts"
import { Api } from "../../services/api.ts"
import { navigator } from "../../services/runtime.ts"
import { data, task, toastFailure, toastSuccess, written } from "../bridge.ts"

const protection = ProtectionApi.endpoints

/**
 * One change as its call: the server's message (what applies from when) shows as a toast; a refusal shows in its
 * section of the page (the machine keeps it there), and only there.
 */
const send = (command: ProtectionCommand) =>
  Api.use((api) => {
    switch (command.type) {
      case "setLimit":
        return api.call(protection.setLimit, { payload: { kind: command.kind, period: command.period, amount: command.amount } })
      case "confirmLimit":
        return api.call(protection.confirmLimit, { payload: { kind: command.kind, period: command.period } })
      case "setRealityCheck":
        return api.call(protection.setRealityCheck, { payload: { minutes: command.minutes } })
      case "timeOut":
        return api.call(protection.timeOut, { payload: { days: command.days } })
      case "selfExclude":
        return api.call(protection.selfExclude, { payload: { months: command.months } })
      case "requestReturn":
        return api.call(protection.requestReturn, { payload: {} })
    }
  })

/** The reality check with its call, and the way to the statement. */
const realityCheck = realityCheckMachine.provide({
  actors: {
    // A failure shows in the dialog's alert, not as a toast over it as well.
    continueSession: task(() => data(Api.use((api) => api.call(protection.continueSession, { payload: {} }))))
  },
  actions: { showStatement: () => navigator.go("/responsible-gambling#activity") }
})

/** The player's protection with its calls. */
export default protectionMachine.provide({
  actors: {
    realityCheck,
    load: task(() => data(Api.use((api) => api.call(protection.protection, {})))),
    run: task((command: ProtectionCommand) => written(send(command))),
    activity: activityMachine.provide({
      actors: { loadActivity: task(() => data(Api.use((api) => api.call(protection.activity, {})))) },
      actions: { toastFailure }
    })
  },
  actions: { toastSuccess }
})
