import { Context, Option } from "effect"
import { type ErrorTag, Reasons, statusOf } from "./errors.ts"

/** The failure envelope with the reasons one status code carries, as JSON Schema. */
const failureBody = (code: number, reasons: ReadonlyArray<ErrorTag>) => ({
  type: "object",
  required: ["meta", "data"],
  properties: {
    meta: {
      type: "object",
      required: ["code", "message", "error"],
      properties: {
        code: { type: "integer", enum: [code] },
        message: { type: "string", description: "For the player; the reason is in `error`." },
        error: { type: "string", enum: reasons }
      }
    },
    data: { type: "null" }
  }
})

/** What the document needs of a group: its endpoints' paths, methods and annotations. */
interface Group {
  readonly endpoints: Record<string, { readonly path: string; readonly method: string; readonly annotations: Context.Context<never> }>
}

/** What the transform needs of the document: each operation's responses. */
type Paths = Record<string, Record<string, { responses: Record<number, unknown> } | undefined> | undefined>

/**
 * An `OpenApi.Transform` of the whole API: each endpoint that declares its
 * `Reasons` gets one response per status code, the failure envelope naming
 * the reasons it carries (`meta.error`), in place of the generic error entry.
 */
export const documentReasons = (groups: ReadonlyArray<Group>) => <Spec extends { readonly paths?: Paths }>(spec: Spec): Spec => {
  const paths = spec.paths ?? {}
  for (const group of groups) {
    for (const endpoint of Object.values(group.endpoints)) {
      const reasons = Context.getOption(endpoint.annotations, Reasons)
      if (Option.isNone(reasons)) continue
      const path = endpoint.path.replace(/:(\w+)/g, "{$1}")
      const operation = paths[path]?.[endpoint.method.toLowerCase()]
      if (!operation) continue
      const byStatus = new Map<number, Array<ErrorTag>>()
      for (const reason of reasons.value) byStatus.set(statusOf(reason), [...(byStatus.get(statusOf(reason)) ?? []), reason])
      for (const [code, tags] of byStatus) {
        operation.responses[code] = {
          description: `Refused: ${tags.join(", ")}`,
          content: { "application/json": { schema: failureBody(code, tags) } }
        }
      }
    }
  }
  return spec
}
