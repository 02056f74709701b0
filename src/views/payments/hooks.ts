import { useActorRef, useSelector } from "@xstate/react"
import { useCallback, useEffect, useRef, useState } from "react"
import { fromPromise } from "xstate"
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

/** A write started from a button: busy while it runs; failures were already shown as toasts by the Api service. */
export const useAction = () => {
  const [busy, setBusy] = useState<string | undefined>(undefined)
  const runAction = useCallback(async <A>(name: string, action: () => Promise<A>): Promise<A | undefined> => {
    setBusy(name)
    try {
      return await action()
    } catch {
      return undefined
    } finally {
      setBusy(undefined)
    }
  }, [])
  return { busy, run: runAction }
}
