import type { AnyActorLogic } from "xstate"
import type { FlowName } from "../machines/flows.ts"
import { loaders } from "./flows/index.ts"

/**
 * The logic of every flow a view can open, provided with its world, each in
 * its own chunk: a route's flows load with the route, so the first page
 * carries none of the money pages' schemas and calls. The app machine spawns
 * a flow only once its logic is here (`useFlow` waits for `loadFlow`).
 */

const loaded = new Map<FlowName, AnyActorLogic>()
const loading = new Map<FlowName, Promise<void>>()

/** Loads a flow's logic once; the same promise for every caller (React's `use` waits on it). */
export const loadFlow = (flow: FlowName): Promise<void> => {
  let promise = loading.get(flow)
  if (!promise) {
    promise = (loaders[flow]() as Promise<{ readonly default: AnyActorLogic }>).then(
      (module) => void loaded.set(flow, module.default),
      (error: unknown) => {
        // A chunk that failed to load (offline) may load on the next visit.
        loading.delete(flow)
        throw error
      }
    )
    loading.set(flow, promise)
  }
  return promise
}

/** A flow's loaded logic, for the app machine's `spawnFlow`. */
export const flowLogic = (flow: FlowName): AnyActorLogic => {
  const logic = loaded.get(flow)
  if (!logic) throw new Error(`app: flow '${flow}' was opened before its logic was loaded (useFlow loads it)`)
  return logic
}
