import { Schema } from "effect"
import { isRegion, type Region as RegionCode } from "../domain/regions.ts"

/**
 * A state or union territory of India: its ISO 3166-2:IN code without the
 * prefix ("MH"), one of src/domain/regions.ts. A string with a check rather
 * than a union of literals, so a payload missing it or naming another says so
 * in words (literal fields would make the payload's union fail as a whole).
 */
export const Region = Schema.String.pipe(
  Schema.refine((code): code is RegionCode => isRegion(code), { message: "Please choose the state you live in" })
).annotate({ description: "ISO 3166-2:IN code without the IN- prefix, e.g. MH" })
export type Region = typeof Region.Type
