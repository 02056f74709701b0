import { useActorRef, useSelector } from "@xstate/react"
import { useCallback, useEffect, useRef } from "react"
import { fromPromise } from "xstate"
import { actionMachine } from "../../machines/action.machine.ts"
import { resourceMachine } from "../../machines/resource.machine.ts"
import { useUser } from "../session.ts"

/**
 * A read shown on a page, through the resource machine: loads with `params`,
 * loads again when they change, and when the player's balances change (the
 * session reloads the user on their socket event, so an approval shows here
 * without a reload).
 */
export const useResource = <P, A>(load: (params: P) => (signal: AbortSignal) => Promise<A>, params: P) => {
  const loader = useRef(load)
  loader.current = load
  const actor = useActorRef(
    resourceMachine.provide({ actors: { load: fromPromise(({ input, signal }) => loader.current(input as P)(signal)) } }),
    { input: { params } }
  )
  const key = JSON.stringify(params)
  const first = useRef(true)
  useEffect(() => {
    if (first.current) {
      first.current = false
      return
    }
    actor.send({ type: "resource.load", params })
    // `key` stands for `params`: a new object with the same content is the same request.
  }, [key])
  const user = useUser()
  const moneyMark = user ? `${user.balance}|${user.bonus}|${user.refBonus}|${user.wallet}|${user.exposure}` : ""
  const seen = useRef(moneyMark)
  useEffect(() => {
    if (seen.current === moneyMark) return
    seen.current = moneyMark
    actor.send({ type: "resource.reload" })
  }, [moneyMark])
  const data = useSelector(actor, (s) => s.context.data as A | undefined)
  const loading = useSelector(actor, (s) => s.hasTag("busy"))
  const error = useSelector(actor, (s) => s.context.error)
  const reload = useCallback(() => actor.send({ type: "resource.reload" }), [actor])
  return { data, loading, error, reload }
}

/**
 * A write started from a button or form, through the action machine: `busy`
 * names the one running; `run` starts one (ignored while another runs) and
 * calls `onSuccess` with the answer.
 */
export const useAction = () => {
  const actor = useActorRef(actionMachine)
  const busy = useSelector(actor, (s) => s.context.running?.name)
  const run = useCallback(
    <A>(name: string, perform: (signal: AbortSignal) => Promise<A>, onSuccess?: (output: A) => void) =>
      actor.send({ type: "action.run", name, perform, onSuccess: onSuccess as ((output: unknown) => void) | undefined }),
    [actor]
  )
  return { busy, run }
}
