import { LOBBY_PATH } from "../domain/casino.ts"
import type { FlowName } from "../machines/flows.ts"

/** The pages in chunks of their own that a visit can land on: each is `src/views/pages/<name>.tsx`. */
export type FirstPageName = "Sports" | "InPlay" | "Event" | "Racing" | "Casino"

/** The promo video's poster (its first frame, scripts/promo-video.ts): a visitor's largest paint on an event page. */
export const PROMO_POSTER = "/promo-poster.webp"

/**
 * What a page a visit can land on needs for its first paint, by path: its page chunk, the flows that paint needs
 * (each `src/root/flows/<flow>.ts`; any other flow loads once the page has painted, src/root/main.tsx) and the
 * image it paints largest, if the build knows it. React asks for a page's chunk only once the shell has rendered,
 * and the page opens its flows only once its chunk has run. So the app asks for both as it starts (App.tsx
 * `preloadPage`), and, earlier still, the build names their chunks by path (vite.config.ts, `first-chunks.json`)
 * for the server to preload with the HTML (server/edge/site.ts): they download beside the first chunk instead of
 * after it has run. An event page paints its header and markets from the catalogue; its score and slip follow.
 */
export const FIRST_PAGES: Readonly<Record<string, { readonly page: FirstPageName; readonly flows: ReadonlyArray<FlowName>; readonly image?: string }>> = {
  "/sports": { page: "Sports", flows: [] },
  "/inplay": { page: "InPlay", flows: [] },
  "/event": { page: "Event", flows: [], image: PROMO_POSTER },
  "/racing": { page: "Racing", flows: ["racing", "betSlip"] },
  [LOBBY_PATH.live]: { page: "Casino", flows: ["casino"] },
  [LOBBY_PATH.slots]: { page: "Casino", flows: ["casino"] },
  [LOBBY_PATH.sa]: { page: "Casino", flows: ["casino"] }
}
