/**
 * `npm run guards`: writes src/schema/guards.ts, the first page's decoders, compiled from the shared schemas.
 *
 * The home page, and a casino lobby's games, must show before the Effect runtime loads (docs/performance.md), yet
 * every answer they read is decoded by its schema. The schemas of what they read (the startup calls' envelopes, a failure's
 * meta, the user's socket event, a flashed toast) have no transformations: what travels is what the program
 * uses, so decoding them is checking them. This script walks each schema's AST and writes the same checks as
 * plain functions. A schema it cannot compile exactly (a transformation, a refinement it does not know, a
 * record) stops it with an error instead of a weaker check; `tests/unit/guards.test.ts` fails when the file is
 * not what this script writes now, and holds the guards to `Schema.is` on valid and damaged answers.
 */
import { writeFileSync } from "node:fs"
import { Context, Option, Schema, SchemaAST } from "effect"
import type { HttpApiEndpoint } from "effect/http-api"
import { EventOdds, OddsBatch } from "../src/schema/betting.ts"
import { CasinoApi } from "../src/schema/casino.ts"
import { Meta } from "../src/schema/envelope.ts"
import { ErrorTag, Failure, Reasons } from "../src/schema/errors.ts"
import { UserApi } from "../src/schema/identity.ts"
import { Flash } from "../src/schema/notices.ts"
import { PushMessage } from "../src/schema/push.ts"
import { CatalogueChanged, UserChanged } from "../src/schema/realtime.ts"
import { Region } from "../src/schema/region.ts"
import { SettingsApi } from "../src/schema/settings.ts"
import { SportsApi, SportsDataAuthenticated } from "../src/schema/sports.ts"

export const GUARDS_FILE = "src/schema/guards.ts"

/** Schemas whose refinement is a predicate of the domain: the guard calls the same predicate. */
const named = new Map<SchemaAST.AST, { name: string; from: string }>([[Region.ast, { name: "isRegion", from: "../domain/regions.ts" }]])

/** Effect's own number checks this compiler knows, by their representation id, as guards of the file. */
const numberChecks: Record<string, string> = { "effect/schema/isInt": "int", "effect/schema/isFinite": "finite" }

const imports = new Set<string>()

const unsupported = (ast: SchemaAST.AST, why: string): never => {
  throw new Error(`scripts/guards.ts: cannot compile a ${ast._tag} schema (${why}); decode it with Schema on the Effect runtime instead`)
}

/** A guard expression (a function of `u: unknown`) checking exactly what `ast` accepts. */
const compile = (ast: SchemaAST.AST): string => {
  const known = named.get(ast)
  if (known) {
    imports.add(`import { ${known.name} } from "${known.from}"`)
    return `(u: unknown) => typeof u === "string" && ${known.name}(u)`
  }
  if (ast.encoding !== undefined) return unsupported(ast, "it transforms what travels")
  const base = compileBase(ast)
  if (!ast.checks || ast.checks.length === 0) return base
  if (base !== "num") return unsupported(ast, "only checks of numbers are compiled")
  const guards = ast.checks.map((check) => {
    const id = (check.annotations as { representation?: { id?: string } } | undefined)?.representation?.id
    return (id === undefined ? undefined : numberChecks[id]) ?? unsupported(ast, `its check ${id ?? "(a custom refinement)"} is not known here`)
  })
  // Each of them is false for anything but a number.
  return guards.length === 1 ? guards[0]! : `(u: unknown) => ${guards.map((g) => `${g}(u)`).join(" && ")}`
}

const compileBase = (ast: SchemaAST.AST): string => {
  switch (ast._tag) {
    case "String":
      return "str"
    case "Number":
      return "num"
    case "Boolean":
      return "bool"
    case "Null":
      return "(u: unknown) => u === null"
    case "Literal":
      return `(u: unknown) => u === ${JSON.stringify(ast.literal)}`
    case "Union":
      if (ast.types.every((t) => t._tag === "Literal" && t.checks === undefined)) {
        return `oneOf(${JSON.stringify(ast.types.map((t) => (t as SchemaAST.Literal).literal))})`
      }
      return `anyOf(${ast.types.map(compile).join(", ")})`
    case "Arrays":
      if (ast.elements.length > 0 || ast.rest.length !== 1) return unsupported(ast, "only arrays of one element type are compiled")
      return `array(${compile(ast.rest[0]!)})`
    case "Objects": {
      if (ast.indexSignatures.length > 0) return unsupported(ast, "records are not compiled")
      const fields = ast.propertySignatures.map((p) => {
        if (typeof p.name !== "string") return unsupported(ast, "only string keys are compiled")
        const optional = p.type.context?.isOptional === true
        return `${JSON.stringify(p.name)}: [${compile(p.type)}, ${optional}]`
      })
      return `struct({ ${fields.join(", ")} })`
    }
    default:
      return unsupported(ast, "no rule for it")
  }
}

type AnyEndpoint = Pick<HttpApiEndpoint.Top, "method" | "path" | "success" | "annotations">

/** A startup call: its method, path, the reasons it declares and its envelope's guard. */
const endpoint = (name: string, type: string, e: AnyEndpoint) => {
  const [schema] = e.success as ReadonlySet<Schema.Top>
  const declared = Option.getOrUndefined(Context.getOption(e.annotations, Reasons))
  return [
    `  ${name}: {`,
    `    method: ${JSON.stringify(e.method)},`,
    `    path: ${JSON.stringify(e.path)},`,
    `    declared: ${declared === undefined ? "undefined" : JSON.stringify(declared)},`,
    `    is: (${compile(schema!.ast)}) as (u: unknown) => u is { readonly meta: Meta; readonly data: ${type} }`,
    `  },`
  ].join("\n")
}

/** The file's text, as `npm run guards` writes it. */
export const guardsSource = () => {
  imports.clear()
  const calls = [
    endpoint("sportsData", "SportsData", SportsApi.endpoints.sportsData),
    endpoint("sportsDataAuthenticated", "SportsData", SportsDataAuthenticated),
    endpoint("advertisement", "ReadonlyArray<Banner>", SettingsApi.endpoints.advertisement),
    endpoint("appSettings", "SiteSettings", SettingsApi.endpoints.appSettings),
    endpoint("allAppSettings", "AllAppSettings", SettingsApi.endpoints.allAppSettings),
    endpoint("getUserData", "User", UserApi.endpoints.getUserData),
    endpoint("casinoGames", "ReadonlyArray<CasinoGame>", CasinoApi.endpoints.casinoGames),
    endpoint("saCasinoGames", "ReadonlyArray<CasinoGame>", CasinoApi.endpoints.saCasinoGames)
  ]
  const body = [
    `/** Any envelope: its meta tells success from failure (the data is checked by the call's own guard). */`,
    `export const isAnswer = (${compile(Schema.Struct({ meta: Meta }).ast)}) as (u: unknown) => u is { readonly meta: Meta }`,
    "",
    `/** A failure as machines receive it (src/schema/errors.ts \`Failure\`). */`,
    `export const isFailure = (${compile(Failure.ast)}) as (u: unknown) => u is Failure`,
    "",
    `/** A reason this build knows. */`,
    `export const isErrorTag = (${compile(ErrorTag.ast)}) as (u: unknown) => u is ErrorTag`,
    "",
    `/** The user's socket event (src/schema/realtime.ts). */`,
    `export const isUserChanged = (${compile(UserChanged.ast)}) as (u: unknown) => u is UserChanged`,
    "",
    `/** A toast kept across a page load (src/services/noticeStore.ts). */`,
    `export const isFlash = (${compile(Flash.ast)}) as (u: unknown) => u is Flash`,
    "",
    `/** The odds channel's messages (src/services/odds.ts): an event's snapshot, a batch of changes, a catalogue change. */`,
    `export const isEventOdds = (${compile(EventOdds.ast)}) as (u: unknown) => u is EventOdds`,
    `export const isOddsBatch = (${compile(OddsBatch.ast)}) as (u: unknown) => u is OddsBatch`,
    `export const isCatalogueChanged = (${compile(CatalogueChanged.ast)}) as (u: unknown) => u is CatalogueChanged`,
    "",
    `/** A Web Push message, as the service worker receives it (src/sw.ts). */`,
    `export const isPushMessage = (${compile(PushMessage.ast)}) as (u: unknown) => u is PushMessage`,
    "",
    `/** The calls of the startup pipeline, the session's user reload and the casino lobbies' games (src/root/startup.ts). */`,
    `export const startupCalls = {`,
    ...calls,
    `} as const`
  ]
  return [
    "// Generated by `npm run guards` (scripts/guards.ts) from the schemas of src/schema: do not edit.",
    "// The first page's decoders: the same checks as the schemas, without the Effect runtime (docs/performance.md).",
    ...[...imports].sort(),
    `import type { CasinoGame } from "./casino.ts"`,
    `import type { Meta } from "./envelope.ts"`,
    `import type { ErrorTag, Failure } from "./errors.ts"`,
    `import type { Flash } from "./notices.ts"`,
    `import type { EventOdds, OddsBatch } from "./betting.ts"`,
    `import type { PushMessage } from "./push.ts"`,
    `import type { CatalogueChanged, UserChanged } from "./realtime.ts"`,
    `import type { AllAppSettings, Banner, SiteSettings } from "./settings.ts"`,
    `import type { SportsData } from "./sports.ts"`,
    `import type { User } from "./user.ts"`,
    "",
    "type Guard = (u: unknown) => boolean",
    `const str: Guard = (u) => typeof u === "string"`,
    `const num: Guard = (u) => typeof u === "number"`,
    `const bool: Guard = (u) => typeof u === "boolean"`,
    `const int: Guard = (u) => Number.isSafeInteger(u)`,
    `const finite: Guard = (u) => Number.isFinite(u)`,
    `const oneOf = (literals: ReadonlyArray<unknown>): Guard => (u) => literals.includes(u)`,
    `const anyOf = (...guards: ReadonlyArray<Guard>): Guard => (u) => guards.some((guard) => guard(u))`,
    `const array = (item: Guard): Guard => (u) => Array.isArray(u) && u.every(item)`,
    `/** Each field: its guard, and whether the key may be missing (a present key must pass). */`,
    `const struct = (fields: Record<string, readonly [Guard, boolean]>): Guard => (u) =>`,
    `  typeof u === "object" && u !== null && !Array.isArray(u) &&`,
    `  Object.entries(fields).every(([key, [guard, optional]]) => (Object.hasOwn(u, key) ? guard((u as Record<string, unknown>)[key]) : optional))`,
    "",
    ...body,
    ""
  ].join("\n")
}

if (import.meta.main) {
  writeFileSync(GUARDS_FILE, guardsSource())
  console.log(`${GUARDS_FILE} written`)
}
