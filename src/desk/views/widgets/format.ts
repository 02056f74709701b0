import { formatRupees } from "../../../domain/money.ts"
import { indiaMoment } from "../../../domain/ranges.ts"

/** "₹1,23,456.00": the site's one money format (Indian grouping, two decimals). */
export const rupees = formatRupees

/** "27 Nov 14:02" India time, or "–". */
export const when = (iso: string | null | undefined) => (iso ? indiaMoment(new Date(iso)) : "–")
