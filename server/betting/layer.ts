import { Layer } from "effect"
import { Bonus } from "../bonus/Bonus.ts"
import { Referral } from "../referral/Referral.ts"
import { BettingAdminHandlers, BettingHandlers } from "./http.ts"
import { OddsHandlers } from "../odds/http.ts"
import { OddsFeedLive } from "../odds/layer.ts"
import { PriceHistory } from "../odds/PriceHistory.ts"
import { OddsChannelLive } from "../realtime/odds.ts"
import { Betting } from "./Betting.ts"
import { AutoCashOut } from "./AutoCashOut.ts"
import { CashOut } from "./CashOut.ts"
import { CashOutHandlers } from "./cashOutHttp.ts"
import { Bets } from "./Bets.ts"
import { Settlement } from "./Settlement.ts"
import { Matcher } from "./Matcher.ts"
import { Positions } from "./Positions.ts"
import { Preferences } from "./Preferences.ts"
import { Waiting } from "./Waiting.ts"

/**
 * Sports betting on top of the ledger, realtime, idempotency and the
 * database: settlement, the odds feed (the simulator), the odds channel,
 * placement, unmatched bets and the player's bets.
 */
export const BettingServicesLive = Layer.mergeAll(Betting.layer, AutoCashOut.layer, OddsChannelLive, PriceHistory.layer).pipe(
  // Cash out quotes and writes hedges through the positions; auto cash out fires through it.
  Layer.provideMerge(CashOut.layer),
  // What waits unmatched: matched as prices move (placement tells the matcher what it leaves waiting), or changed by the player.
  Layer.provideMerge(Layer.mergeAll(Matcher.layer, Waiting.layer)),
  Layer.provideMerge(Positions.layer),
  Layer.provideMerge(Layer.mergeAll(OddsFeedLive, Bets.layer, Preferences.layer)),
  Layer.provideMerge(Settlement.layer),
  // Settled stakes count towards bonus wagering and a referral's play (the same instances: layers are shared by reference).
  Layer.provide(Layer.mergeAll(Bonus.layer, Referral.layer))
)

/** The HTTP groups of src/schema/betting.ts. */
export const BettingHandlersLive = Layer.mergeAll(BettingHandlers, BettingAdminHandlers, OddsHandlers, CashOutHandlers)
