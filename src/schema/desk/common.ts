import { Schema } from "effect"
import { PERMISSIONS, STAFF_ROLES } from "../../domain/staff.ts"

/** A string of at most `max` characters. */
export const Text = (max: number) => Schema.String.check(Schema.isMaxLength(max))

/** An id in a path. */
export const Id = Schema.Struct({ id: Text(64) })

/** An instant as ISO 8601 text. */
export const Instant = Schema.String

export const StaffRole = Schema.Literals(STAFF_ROLES)
export type StaffRole = typeof StaffRole.Type

export const Permission = Schema.Literals(PERMISSIONS)

/**
 * One page of a long list, paged on the server by a cursor (keyset): `next`
 * is what to send as `after` for the following page, null on the last one;
 * `total` counts every row the filters match.
 */
export const Page = <S extends Schema.Top>(item: S) =>
  Schema.Struct({ items: Schema.Array(item), next: Schema.NullOr(Schema.String), total: Schema.Int })

/** The paging every list takes: a page size (default 50, at most 200) and the cursor of the page before. */
export const PageQuery = {
  limit: Schema.optionalKey(Schema.NumberFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 200 }))),
  after: Schema.optionalKey(Text(200))
}

export const DEFAULT_PAGE = 50

/**
 * Who asked for a four-eyes request and how it ended: what every request
 * waiting for a second staff member says (a settlement, a void, an adjustment).
 */
export const DecisionFields = {
  requestedBy: Schema.String,
  requestedAt: Instant,
  status: Schema.Literals(["pending", "approved", "rejected", "cancelled"]),
  decidedBy: Schema.NullOr(Schema.String),
  decidedAt: Schema.NullOr(Instant),
  remark: Schema.NullOr(Schema.String),
  /** Whether the staff member reading it asked for it (so may not approve it). */
  mine: Schema.Boolean
}
