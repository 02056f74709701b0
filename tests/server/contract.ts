import { Context, Option, Schema } from "effect"
import { HttpApi } from "effect/http-api"
import { Api } from "../../src/schema/api.ts"
import { defaultTag, ErrorTag, Reasons, statusOf } from "../../src/schema/errors.ts"

/**
 * The failure reasons of the contract, as the tests check them: each endpoint
 * of the HttpApi definition with the reasons it declares (`Reasons`), so any
 * answer a test receives can be held to them.
 */
interface Declared {
  readonly method: string
  readonly pattern: RegExp
  readonly reasons: ReadonlyArray<ErrorTag> | undefined
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
const declared: Array<Declared> = []
HttpApi.reflect(Api, {
  onGroup: () => undefined,
  onEndpoint: ({ endpoint }) => {
    declared.push({
      method: endpoint.method,
      pattern: new RegExp(`^${endpoint.path.split(/(:\w+)/).map((part) => (part.startsWith(":") ? "[^/]+" : escape(part))).join("")}$`),
      reasons: Option.getOrUndefined(Context.getOption(endpoint.annotations, Reasons))
    })
  }
})

/** The reasons the endpoint at `method path` declares; undefined when it declares none, or nothing answers there. */
export const reasonsOf = (method: string, path: string) => {
  const bare = path.split("?")[0]!
  return declared.find((endpoint) => endpoint.method === method.toUpperCase() && endpoint.pattern.test(bare))?.reasons
}

const isTag = Schema.is(ErrorTag)

/**
 * What is wrong with a failure's reason by the contract, or undefined: a
 * reason is a known tag, travels with its own status, and is either the
 * status's generic reason or one the endpoint declares (the client passes a
 * machine no other).
 */
export const reasonProblem = (reasons: ReadonlyArray<ErrorTag> | undefined, status: number, tag: unknown) => {
  if (!isTag(tag)) return `${String(tag)} is not an ErrorTag`
  if (statusOf(tag) !== status) return `${tag} travels with ${statusOf(tag)}, not ${status}`
  if (reasons !== undefined && tag !== defaultTag(status) && !reasons.includes(tag)) return `${tag} is not among the declared reasons (${reasons.join(", ")})`
  return undefined
}
