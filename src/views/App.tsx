import { lazy, Suspense } from "react"
import { Route, Routes } from "react-router"
import { Layout } from "./layout/Layout.tsx"
import { Home } from "./pages/Home.tsx"
import { PageLoading } from "./widgets/PageLoading.tsx"

const Sports = lazy(() => import("./pages/Sports.tsx"))
const InPlay = lazy(() => import("./pages/InPlay.tsx"))
const EventPage = lazy(() => import("./pages/Event.tsx"))
const Racing = lazy(() => import("./pages/Racing.tsx"))
const Casino = lazy(() => import("./pages/Casino.tsx"))
const Deposit = lazy(() => import("./pages/Deposit.tsx"))
const Withdrawal = lazy(() => import("./pages/Withdrawal.tsx"))
const BonusPage = lazy(() => import("./pages/Bonus.tsx"))
const ReferralBonus = lazy(() => import("./pages/ReferralBonus.tsx"))
const Statements = lazy(() => import("./pages/Statements.tsx"))
const ProfitLoss = lazy(() => import("./pages/ProfitLoss.tsx"))
const Content = lazy(() => import("./pages/Content.tsx"))
const ResponsibleGambling = lazy(() => import("./pages/ResponsibleGambling.tsx"))
const NotFound = lazy(() => import("./pages/NotFound.tsx"))

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
