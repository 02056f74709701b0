import { parsePhoneNumberFromString } from "libphonenumber-js/max"

/** Lines of a US area code: libphonenumber cannot tell a US mobile from a fixed line, and codes go to either. */
const GEOGRAPHIC = new Set(["FIXED_LINE_OR_MOBILE", "MOBILE", "FIXED_LINE"])

/**
 * Whether a +1 number (E.164) is in a US geographic area code, by libphonenumber's metadata (Google's list,
 * updated with each release of the package): not premium-rate (+1 900), toll-free, personal (5XX), a US
 * territory's or another NANP country's (Canada, the Caribbean: +1 876 Jamaica, +1 809 Dominican Republic),
 * whose SMS routes cost like international ones. The server asks it; the metadata is too big for the page.
 */
export const isUsGeographic = (e164: string) => {
  const number = parsePhoneNumberFromString(e164)
  return number?.country === "US" && GEOGRAPHIC.has(number.getType() ?? "")
}
