import { fromPromise } from "xstate"
import { rejectCall } from "../schema/failures.ts"

/**
 * A machine's promise actor making a call from a module that loads with the
 * first call (and the Effect runtime with it), so the page that may make the
 * call never waits for that module.
 */
export const lazyTask = <M, I, O>(load: () => Promise<M>, pick: (module: M) => (input: I, signal: AbortSignal) => Promise<O>) =>
  fromPromise<O, I>(({ input, signal }) => load().then((module) => pick(module)(input, signal)).catch(rejectCall(signal)))
