/**
 * The rules for the site settings staff set on the desk (title, colour, logo,
 * favicon; docs/backoffice.md): the server applies them, the desk checks them
 * before sending. Images are data URLs as the player site shows them.
 */

export const MAX_TITLE = 60
/** A logo and a favicon as data URLs: small enough to travel in every settings answer. */
export const MAX_LOGO_CHARS = 600_000
export const MAX_FAVICON_CHARS = 150_000

const COLOUR = /^#[0-9a-f]{6}$/i
const IMAGE = /^data:image\/(png|jpeg|webp|gif|svg\+xml|x-icon|vnd\.microsoft\.icon);base64,[A-Za-z0-9+/]+={0,2}$/

export interface SiteFields {
  readonly siteTitle: string
  readonly color: string
  readonly logoImg: string
  readonly faviconImg: string
}

/** An image may be left out (""): the player site then shows the title alone. */
const imageProblem = (value: string, what: string, max: number) =>
  value === "" ? undefined : !IMAGE.test(value) ? `The ${what} must be a PNG, JPEG, WebP, GIF, SVG or ICO image.` : value.length > max ? `The ${what} is too large: at most ${Math.floor((max * 3) / 4 / 1024)} KB.` : undefined

/** What is wrong with site settings, or undefined. */
export const siteProblem = (site: SiteFields) => {
  const title = site.siteTitle.trim()
  if (title === "") return "Give the site a title."
  if (title.length > MAX_TITLE) return `The title is at most ${MAX_TITLE} characters.`
  if (!COLOUR.test(site.color.trim())) return "The colour is a hex colour such as #0f766e."
  return imageProblem(site.logoImg, "logo", MAX_LOGO_CHARS) ?? imageProblem(site.faviconImg, "favicon", MAX_FAVICON_CHARS)
}

/** Site settings as stored: the title and colour trimmed. */
export const siteOf = (site: SiteFields): SiteFields => ({ siteTitle: site.siteTitle.trim(), color: site.color.trim().toLowerCase(), logoImg: site.logoImg, faviconImg: site.faviconImg })

/** A home-page banner's image: a data URL, at most about 900 KB (the spec's base64 image per slide). */
export const MAX_BANNER_CHARS = 900_000
export const MAX_BANNER_TITLE = 80

/** What is wrong with a new banner, or undefined. */
export const bannerProblem = (banner: { readonly title: string; readonly image: string }) =>
  banner.title.trim() === "" ? "Give the banner a title (screen readers read it)." :
  banner.title.trim().length > MAX_BANNER_TITLE ? `A banner's title is at most ${MAX_BANNER_TITLE} characters.` :
  banner.image === "" ? "Choose the banner's image." : imageProblem(banner.image, "banner", MAX_BANNER_CHARS)

/** A new order must name every banner once. */
export const orderProblem = (current: ReadonlyArray<string>, order: ReadonlyArray<string>) =>
  order.length === current.length && new Set(order).size === order.length && order.every((id) => current.includes(id)) ? undefined : "The banners changed meanwhile: order them again."

/** The order with one banner moved up (-1) or down (+1); unchanged at either end. */
export const moved = (order: ReadonlyArray<string>, id: string, by: -1 | 1) => {
  const at = order.indexOf(id)
  const to = at + by
  if (at < 0 || to < 0 || to >= order.length) return [...order]
  const next = [...order]
  ;[next[at], next[to]] = [next[to]!, next[at]!]
  return next
}
