import { TOP_CASINO_AUTOPLAY_MS } from "../../domain/casino.ts"
import { CasinoPanel } from "../widgets/CasinoSlider.tsx"

/** The Top Casino panel on the home page: live tables, 2.5 s autoplay. */
const TopCasino = () => (
  <div className="sticky top-[4.5rem]">
    <CasinoPanel title="Top Casino" autoplayMs={TOP_CASINO_AUTOPLAY_MS} headingId="top-casino-title" />
  </div>
)

export default TopCasino
