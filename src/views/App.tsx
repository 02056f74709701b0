import type { ComponentType } from "react"
import { Route, Routes } from "react-router"
import type { FlowName } from "../machines/flows.ts"
import { FIRST_PAGES, type FirstPageName } from "./firstPages.ts"
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
const Results = lazyPage(() => import("./pages/Results.tsx"))
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

/** The chunk of each page a visit can land on (firstPages.ts). */
const FIRST_PAGE_CHUNKS: Readonly<Record<FirstPageName, () => Promise<unknown>>> = {
  Sports: Sports.load,
  InPlay: InPlay.load,
  Event: EventPage.load,
  Racing: Racing.load,
  Casino: Casino.load
}

/** Starts loading what the page at `path` needs first; anything that fails loads again when the page asks for it. */
export const preloadPage = (path: string, loadFlow: (flow: FlowName) => Promise<void>) => {
  const first = FIRST_PAGES[path]
  if (!first) return
  FIRST_PAGE_CHUNKS[first.page]().catch(() => {})
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
      <Route path="results" element={<Results />} />
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
