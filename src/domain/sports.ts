/** Sports shown first, in this order; the rest follow by name. */
const FIRST = ["cricket", "football", "tennis"]

/** Racing sports are reached through /racing, never through the sidebar or the chip strip. */
export const RACING_SLUGS: ReadonlySet<string> = new Set(["horse-racing", "greyhound-racing"])

export const isRacing = (sport: { readonly slugName: string }) => RACING_SLUGS.has(sport.slugName)

const rank = (slug: string) => {
  const index = FIRST.indexOf(slug)
  return index === -1 ? FIRST.length : index
}

export const sortSports = <S extends { readonly slugName: string; readonly name: string }>(
  sports: ReadonlyArray<S>
): Array<S> =>
  [...sports].sort((a, b) => rank(a.slugName) - rank(b.slugName) || a.name.localeCompare(b.name))

/** URL-safe lower-case slug: "India v Australia" -> "india-v-australia". */
export const slugify = (name: string) =>
  name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")

/** Event count badge: capped at 99+. */
export const countBadge = (count: number) => (count > 99 ? "99+" : String(count))
