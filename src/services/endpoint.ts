import type { HttpApiEndpoint } from "effect/http-api"

/** Calling an endpoint of the shared HttpApi definition: its types and its path. Shared by the player's and the desk's Api. */

/**
 * What a call needs of an endpoint of the shared definition: its method, path
 * and schemas. (Structural, so endpoints of a group used on its own, before
 * the whole API adds its middleware, fit too.)
 */
export type AnyEndpoint = Pick<HttpApiEndpoint.Top, "method" | "path" | "success" | "annotations" | "~Success" | "~Payload" | "~Query" | "~Params">

/** The decoded success body of an endpoint: its envelope. */
export type Success<E extends AnyEndpoint> = E["~Success"]["Type"]

/** What a call needs besides the endpoint: the payload, query and path params its schemas describe. */
export type Input<E extends AnyEndpoint> =
  & ([E["~Payload"]["Type"]] extends [never] ? {} : { readonly payload: E["~Payload"]["Encoded"] })
  & ([E["~Query"]["Type"]] extends [never] ? {} : { readonly query: E["~Query"]["Encoded"] })
  & ([E["~Params"]["Type"]] extends [never] ? {} : { readonly params: Record<string, string> })

/** The endpoint's path with its `:name` params filled in. */
export const fillPath = (path: string, params: Record<string, string> | undefined) =>
  params ? path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? "")) : path
