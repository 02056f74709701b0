/**
 * Machines are pure definitions: what touches the world (the API, storage,
 * sockets, toasts, navigation) is provided by the composition root
 * (src/root), and tests provide stubs. These defaults stand in until then and
 * fail loudly, naming the machine and what was not wired.
 */
const missing = (machine: string, kind: "actor" | "action", name: string) => new Error(`${machine}: ${kind} '${name}' must be provided`)

/** The default of a world-touching actor (`fromPromise<Out, In>(unprovided("withdrawal", "submit"))`). */
export const unprovided = (machine: string, name: string) => (): never => {
  throw missing(machine, "actor", name)
}

/** The default of a world-touching action; `Params` types what the machine passes it. */
export const unprovidedAction = <Params = undefined>(machine: string, name: string) => (_: unknown, _params: Params): never => {
  throw missing(machine, "action", name)
}
