import { bonusMachine } from "../../machines/bonus.machine.ts"
import { BonusApi } from "../../schema/bonus.ts"
import { Api } from "../../services/api.ts"
import { data, task, toastFailure, toastSuccess, written } from "../bridge.ts"

const bonus = BonusApi.endpoints

const endpoints = { activate: bonus.activateBonus, claim: bonus.claimBonus, forfeit: bonus.forfeitBonus } as const

/** /bonus with its calls: the server's answer to an action shows as a toast ('Bonus activated…', or why not). */
export default bonusMachine.provide({
  actors: {
    loadBonuses: task(() => data(Api.use((api) => api.call(bonus.bonusData, {})))),
    act: task(({ action, bonusId, key }) =>
      written(Api.use((api) => api.call(endpoints[action], { payload: { bonusId } }, { idempotencyKey: key })))
    )
  },
  actions: { toastSuccess, toastFailure }
})
