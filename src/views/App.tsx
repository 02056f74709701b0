import { lazy, Suspense } from "react"
import { Route, Routes } from "react-router"
import { LOBBY_PATH } from "../domain/casino.ts"
import type { FlowName } from "../machines/flows.ts"
import { Layout } from "./layout/Layout.tsx"
import { Home } from "./pages/Home.tsx"
import { PageLoading } from "./widgets/PageLoading.tsx"

// Each page's chunk, by the route that shows it.
const chunks = {
  sports: () => import("./pages/Sports.tsx"),
  inPlay: () => import("./pages/InPlay.tsx"),
  event: () => import("./pages/Event.tsx"),
  racing: () => import("./pages/Racing.tsx"),
  casino: () => import("./pages/Casino.tsx")
}
const Sports = lazy(chunks.sports)
const InPlay = lazy(chunks.inPlay)
const EventPage = lazy(chunks.event)
const Racing = lazy(chunks.racing)
const Casino = lazy(chunks.casino)
const Deposit = lazy(() => import("./pages/Deposit.tsx"))
const Withdrawal = lazy(() => import("./pages/Withdrawal.tsx"))
const BonusPage = lazy(() => import("./pages/Bonus.tsx"))
const ReferralBonus = lazy(() => import("./pages/ReferralBonus.tsx"))
const Statements = lazy(() => import("./pages/Statements.tsx"))
const ProfitLoss = lazy(() => import("./pages/ProfitLoss.tsx"))
const Content = lazy(() => import("./pages/Content.tsx"))
const ResponsibleGambling = lazy(() => import("./pages/ResponsibleGambling.tsx"))
const NotFound = lazy(() => import("./pages/NotFound.tsx"))

/**
 * What a page a visit can land on needs first, by path: its chunk and the flows it opens as it renders. React asks
 * for a page's chunk only once the shell has rendered, and the page opens its flows only once its chunk has run;
 * asking for both from the start, beside the first chunk, takes those round trips off what the page paints first
 * (an event's title and markets, a lobby's cards).
 */
const FIRST: Readonly<Record<string, { readonly chunk: () => Promise<unknown>; readonly flows: ReadonlyArray<FlowName> }>> = {
  "/sports": { chunk: chunks.sports, flows: [] },
  "/inplay": { chunk: chunks.inPlay, flows: [] },
  "/event": { chunk: chunks.event, flows: ["liveEvent", "betSlip"] },
  "/racing": { chunk: chunks.racing, flows: ["racing", "betSlip"] },
  [LOBBY_PATH.live]: { chunk: chunks.casino, flows: ["casino"] },
  [LOBBY_PATH.slots]: { chunk: chunks.casino, flows: ["casino"] },
  [LOBBY_PATH.sa]: { chunk: chunks.casino, flows: ["casino"] }
}

/** Starts loading what the page at `path` needs first; anything that fails loads again when the page asks for it. */
export const preloadPage = (path: string, loadFlow: (flow: FlowName) => Promise<void>) => {
  const first = FIRST[path]
  if (!first) return
  first.chunk().catch(() => {})
  for (const flow of first.flows) loadFlow(flow).catch(() => {})
}

const page = (element: React.ReactNode) => <Suspense fallback={<PageLoading />}>{element}</Suspense>

/** The site's routes (SPEC section 2); the composition root renders them inside the router and the app actor. */
export const App = () => (
  <Routes>
    <Route element={<Layout />}>
      <Route index element={<Home />} />
      <Route path="login" element={<Home />} />
      <Route path="sports" element={page(<Sports />)} />
      <Route path="inplay" element={page(<InPlay />)} />
      <Route path="event" element={page(<EventPage />)} />
      <Route path="racing" element={page(<Racing />)} />
      <Route path="live-casino" element={page(<Casino lobby="live" />)} />
      <Route path="slots" element={page(<Casino lobby="slots" />)} />
      <Route path="sa-casino" element={page(<Casino lobby="sa" />)} />
      <Route path="deposit" element={page(<Deposit />)} />
      <Route path="withdrawal" element={page(<Withdrawal />)} />
      <Route path="bonus" element={page(<BonusPage />)} />
      <Route path="referral-bonus" element={page(<ReferralBonus />)} />
      <Route path="statements" element={page(<Statements />)} />
      <Route path="profit-loss" element={page(<ProfitLoss />)} />
      <Route path="terms-&-conditions" element={page(<Content page="terms" />)} />
      <Route path="privacy-policy" element={page(<Content page="privacy" />)} />
      <Route path="responsible-gambling" element={page(<ResponsibleGambling />)} />
      <Route path="about" element={page(<Content page="about" />)} />
      <Route path="*" element={page(<NotFound />)} />
    </Route>
  </Routes>
)
