import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import { Envelope } from "../envelope.ts"
import { Requires, StaffAuthentication } from "../middleware.ts"
import { Role } from "../user.ts"
import { Instant, Page, PageQuery, Text } from "./common.ts"

/** One staff action: who (and their role then), when, from where, what, on which record, before and after. */
export const AuditEntry = Schema.Struct({
  id: Schema.String,
  at: Instant,
  /** The staff member's username, "cli" or "system". */
  actor: Schema.String,
  actorRole: Schema.NullOr(Role),
  ip: Schema.NullOr(Schema.String),
  action: Schema.String,
  subjectKind: Schema.NullOr(Schema.String),
  subjectId: Schema.NullOr(Schema.String),
  before: Schema.Unknown,
  after: Schema.Unknown
})
export type AuditEntry = typeof AuditEntry.Type

/** Search: any text (in the action, the record, who, the values), who, what, which record, between which days (India time). */
export const AuditQuery = Schema.Struct({
  q: Schema.optionalKey(Text(100)),
  actor: Schema.optionalKey(Text(64)),
  action: Schema.optionalKey(Text(64)),
  subject: Schema.optionalKey(Text(64)),
  start_date: Schema.optionalKey(Text(40)),
  end_date: Schema.optionalKey(Text(40)),
  ...PageQuery
})
export type AuditQuery = typeof AuditQuery.Type

/** The audit trail (append-only): search, page, export. */
export class DeskAuditApi extends HttpApiGroup.make("deskAudit")
  .add(
    HttpApiEndpoint.get("search", "/audit", { query: AuditQuery, success: Envelope(Page(AuditEntry)) }).annotate(Requires, "audit.read"),
    // Every entry the search matches (not only a page), as a CSV file.
    HttpApiEndpoint.get("export", "/audit.csv", { query: AuditQuery, success: Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/csv; charset=utf-8" })) })
      .annotate(Requires, "audit.export")
  )
  .middleware(StaffAuthentication)
  .prefix("/api/v1/desk")
{}
