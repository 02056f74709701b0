/**
 * Names people type (a player's name, an account holder's or a bank's name)
 * as the site keeps them, so they read on the operator's payout list as they
 * are. Unicode's compatibility form first (NFKC: full-width and styled
 * letters become plain ones, "Ｒａｍ" is "Ram"); then every format character
 * goes (category Cf: zero-width spaces and joiners, the soft hyphen, the
 * bidirectional controls and marks — "Ravi\u202Etnuocca" shows as
 * "Raviaccount", "Ram\u200BKumar" looks like "RamKumar" but is not), every
 * other control character too; spaces are collapsed.
 */
export const cleanName = (text: string) =>
  text.normalize("NFKC").replace(/\p{Cf}/gu, "").replace(/\s/g, " ").replace(/\p{Cc}/gu, "").replace(/ {2,}/g, " ").trim()
