import { useDeferredValue, useSyncExternalStore } from "react"

/**
 * Code or data a view waits for without suspending: a page's chunk, the odds books. React holds a suspended
 * boundary's content back until 300 ms after its fallback appeared (its fallback throttle), so what arrived a
 * moment after the fallback waited anyway: an event's title behind the page's loading line, then its markets
 * behind theirs, 300 ms each. A loadable's arrival is an ordinary update instead (a deferred render, not a
 * boundary's retry, which is what React throttles); the view shows its loading line until then.
 */
export interface Loadable<T> {
  /** The value once loaded, undefined until then. */
  readonly get: () => T | undefined
  /** Starts the load (unless it is loaded or loading) and calls `listener` once it has loaded. */
  readonly subscribe: (listener: () => void) => () => void
  /** Starts the load unless it is loaded or loading; the same promise until it fails. */
  readonly load: () => Promise<T>
}

export const loadable = <T>(start: () => Promise<T>): Loadable<T> => {
  let value: { readonly loaded: T } | undefined
  let loading: Promise<T> | undefined
  const listeners = new Set<() => void>()
  const load = () =>
    (loading ??= start().then(
      (loaded) => {
        value = { loaded }
        for (const listener of listeners) listener()
        return loaded
      },
      (error: unknown) => {
        // A chunk lost on a patchy network: the view keeps its loading line, and the next one to ask tries again.
        loading = undefined
        return Promise.reject(error)
      }
    ))
  return {
    get: () => value?.loaded,
    subscribe: (listener) => {
      listeners.add(listener)
      load().catch((error: unknown) => console.error("[views] could not be loaded", error))
      return () => listeners.delete(listener)
    },
    load
  }
}

/**
 * The loadable's value, undefined while it loads (subscribing starts the load). The store is read as React reads
 * any store; its arrival is shown through `useDeferredValue`, a render React does in slices between the browser's
 * frames (the store's own update, which renders nothing new yet, is the only blocking one): a whole page arriving
 * in `useSyncExternalStore`'s blocking update was one long task. A value already loaded shows in the first render.
 */
export const useLoaded = <T>(source: Loadable<T>): T | undefined => useDeferredValue(useSyncExternalStore(source.subscribe, source.get, source.get))
