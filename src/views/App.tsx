import type { ComponentType } from "react"
import { Route, Routes } from "react-router"
import { LOBBY_PATH } from "../domain/casino.ts"
import type { FlowName } from "../machines/flows.ts"
import { Layout } from "./layout/Layout.tsx"
import { loadable, useLoaded } from "./loadable.ts"
import { Home } from "./pages/Home.tsx"
import { PageLoading } from "./widgets/PageLoading.tsx"

/**
 * A page in a chunk of its own, loaded when first shown (or before, by `preloadPage`). It shows the loading line
 * until its chunk is in, then the page, as an ordinary update: `React.lazy` would suspend, and React shows a
 * suspended page no sooner than 300 ms after its loading line, even when the chunk came a moment later (loadable.ts).
 */
const lazyPage = <P extends object>(load: () => Promise<{ readonly default: ComponentType<P> }>) => {
  const chunk = loadable(() => load().then((module) => module.default))
  const Page = (props: P) => {
    const Component = useLoaded(chunk)
    return Component ? <Component {...props} /> : <PageLoading />
  }
  return Object.assign(Page, { load: chunk.load })
}

const Sports = lazyPage(() => import("./pages/Sports.tsx"))
const InPlay = lazyPage(() => import("./pages/InPlay.tsx"))
const EventPage = lazyPage(() => import("./pages/Event.tsx"))
const Racing = lazyPage(() => import("./pages/Racing.tsx"))
const Casino = lazyPage(() => import("./pages/Casino.tsx"))
const Deposit = lazyPage(() => import("./pages/Deposit.tsx"))
const Withdrawal = lazyPage(() => import("./pages/Withdrawal.tsx"))
const BonusPage = lazyPage(() => import("./pages/Bonus.tsx"))
const ReferralBonus = lazyPage(() => import("./pages/ReferralBonus.tsx"))
const Statements = lazyPage(() => import("./pages/Statements.tsx"))
const ProfitLoss = lazyPage(() => import("./pages/ProfitLoss.tsx"))
const Content = lazyPage(() => import("./pages/Content.tsx"))
const ResponsibleGambling = lazyPage(() => import("./pages/ResponsibleGambling.tsx"))
const NotFound = lazyPage(() => import("./pages/NotFound.tsx"))

/**
 * What a page a visit can land on needs first, by path: its chunk and the flows it opens as it renders. React asks
 * for a page's chunk only once the shell has rendered, and the page opens its flows only once its chunk has run;
 * asking for both from the start, beside the first chunk, takes those round trips off what the page paints first
 * (an event's title and markets, a lobby's cards).
 */
const FIRST: Readonly<Record<string, { readonly chunk: () => Promise<unknown>; readonly flows: ReadonlyArray<FlowName> }>> = {
  "/sports": { chunk: Sports.load, flows: [] },
  "/inplay": { chunk: InPlay.load, flows: [] },
  "/event": { chunk: EventPage.load, flows: ["liveEvent", "betSlip"] },
  "/racing": { chunk: Racing.load, flows: ["racing", "betSlip"] },
  [LOBBY_PATH.live]: { chunk: Casino.load, flows: ["casino"] },
  [LOBBY_PATH.slots]: { chunk: Casino.load, flows: ["casino"] },
  [LOBBY_PATH.sa]: { chunk: Casino.load, flows: ["casino"] }
}

/** Starts loading what the page at `path` needs first; anything that fails loads again when the page asks for it. */
export const preloadPage = (path: string, loadFlow: (flow: FlowName) => Promise<void>) => {
  const first = FIRST[path]
  if (!first) return
  first.chunk().catch(() => {})
  for (const flow of first.flows) loadFlow(flow).catch(() => {})
}

/** The site's routes (SPEC section 2); the composition root renders them inside the router and the app actor. */
export const App = () => (
  <Routes>
    <Route element={<Layout />}>
      <Route index element={<Home />} />
      <Route path="login" element={<Home />} />
      <Route path="sports" element={<Sports />} />
      <Route path="inplay" element={<InPlay />} />
      <Route path="event" element={<EventPage />} />
      <Route path="racing" element={<Racing />} />
      <Route path="live-casino" element={<Casino lobby="live" />} />
      <Route path="slots" element={<Casino lobby="slots" />} />
      <Route path="sa-casino" element={<Casino lobby="sa" />} />
      <Route path="deposit" element={<Deposit />} />
      <Route path="withdrawal" element={<Withdrawal />} />
      <Route path="bonus" element={<BonusPage />} />
      <Route path="referral-bonus" element={<ReferralBonus />} />
      <Route path="statements" element={<Statements />} />
      <Route path="profit-loss" element={<ProfitLoss />} />
      <Route path="terms-&-conditions" element={<Content page="terms" />} />
      <Route path="privacy-policy" element={<Content page="privacy" />} />
      <Route path="responsible-gambling" element={<ResponsibleGambling />} />
      <Route path="about" element={<Content page="about" />} />
      <Route path="*" element={<NotFound />} />
    </Route>
  </Routes>
)
