import { ICONS, SCREENSHOTS } from "../../src/domain/pwa.ts"
import type { SiteSettings } from "../../src/schema/settings.ts"

/** The page's colour under the default (dark) theme (src/views/styles.css `--bg`): the splash screen's, so opening the app does not flash. */
export const SPLASH_BACKGROUND = "#0f1115"
const FALLBACK_THEME = "#f5b301"

const hexColour = (value: string) => (/^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(value) ? value : FALLBACK_THEME)

/** "Khel - Sports Exchange & Live Casino" → "Khel": what a launcher shows under the icon. */
export const shortName = (title: string) => (title.split(/\s+[-–—|:]\s+/)[0] ?? title).trim().slice(0, 12).trim() || "Khel"

/**
 * The web manifest, from the operator's site settings: the name is the site's
 * title, the theme colour its brand colour. Chromium installs a site whose
 * manifest has a name, a start URL, `standalone` display and 192 and 512 px
 * icons (and whose worker answers navigations); the screenshots make the
 * richer install sheet; the shortcuts are what a long press on the icon offers.
 */
export const webManifest = (site: SiteSettings) => {
  const name = site.siteTitle.trim() || "Khel"
  const shortcutIcon = [{ src: ICONS.any192, sizes: "192x192", type: "image/png" }]
  return {
    id: "/",
    name,
    short_name: shortName(name),
    description: "Sports exchange, bookmaker and fancy markets, in-play betting and live casino.",
    lang: "en-IN",
    dir: "ltr",
    start_url: "/?source=app",
    scope: "/",
    display: "standalone",
    theme_color: hexColour(site.color),
    background_color: SPLASH_BACKGROUND,
    categories: ["sports", "entertainment"],
    icons: [
      { src: ICONS.any192, sizes: "192x192", type: "image/png", purpose: "any" },
      { src: ICONS.any512, sizes: "512x512", type: "image/png", purpose: "any" },
      { src: ICONS.maskable512, sizes: "512x512", type: "image/png", purpose: "maskable" }
    ],
    screenshots: SCREENSHOTS.map((shot) => ({
      src: shot.src,
      sizes: `${shot.width}x${shot.height}`,
      type: "image/png",
      form_factor: shot.formFactor,
      label: shot.label
    })),
    shortcuts: [
      { name: "In-Play", short_name: "In-Play", description: "Events in play now", url: "/inplay?source=app", icons: shortcutIcon },
      { name: "My Bets", short_name: "My Bets", description: "Your open bets", url: "/?show=my-bets&source=app", icons: shortcutIcon },
      { name: "Deposit", short_name: "Deposit", description: "Add money to your balance", url: "/deposit?source=app", icons: shortcutIcon }
    ]
  }
}
