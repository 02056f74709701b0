import { betProfile } from "./bet-profile.ts"
import { betsBench } from "./bets.ts"
import { lobbyLighthouse, lobbyWeight } from "./casino.ts"
import { clusterBench } from "./cluster.ts"
import { compareBench } from "./compare.ts"
import { deskBench } from "./desk.ts"
import { homeWeight } from "./home-weight.ts"
import { interactionBench } from "./interaction.ts"
import { pagesLighthouse } from "./lighthouse.ts"
import { oddsBench } from "./odds.ts"
import { shownBench } from "./shown.ts"
import { signinBench } from "./signin.ts"

export interface Section {
  readonly name: string
  readonly title: string
  readonly run: () => Promise<void>
}

/** Every figure `npm run bench` prints, in order. */
export const sections: Array<Section> = [
  { name: "home", title: "Home page weight before it is interactive (compressed, as transferred)", run: homeWeight },
  { name: "pages", title: "Main pages: Lighthouse mobile (median of 3)", run: pagesLighthouse },
  { name: "shown", title: "Main pages on a phone over slow 4G, CPU 4x: when the page is shown (the preloader has gone)", run: shownBench },
  { name: "interaction", title: "Interaction to next paint on the event page, CPU slowed 4x (Event Timing API)", run: interactionBench },
  { name: "odds", title: "Event page receiving 1,000 price updates/s, CPU slowed 4x (10 s)", run: oddsBench },
  { name: "bets", title: "Bet placement: 100 concurrent players for 20 s (PGlite, PostgreSQL)", run: betsBench },
  { name: "bet-profile", title: "One bet end to end: SQL statements and where the milliseconds go (one bet at a time)", run: betProfile },
  { name: "compare", title: "Bets: this checkout against another (BENCH_BASE), side by side in alternating slices", run: compareBench },
  { name: "cluster", title: "Bet placement through nginx: one and three servers on one PostgreSQL", run: clusterBench },
  { name: "casino", title: "Live casino lobby: weight before the first game card is visible (as transferred)", run: lobbyWeight },
  { name: "lighthouse", title: "Live casino lobby: Lighthouse mobile performance", run: lobbyLighthouse },
  { name: "desk", title: "The desk's deposit queue with 10,000 pending: opened and paged through the real server (PGlite)", run: deskBench },
  { name: "signin", title: "Known and unknown accounts: answer times of sign-in and forgot-password (60 each, interleaved)", run: signinBench }
]
