-- Exchange bets are matched against the ladder (src/domain/matching.ts): a bet
-- takes what the levels offer at its price or better, and the rest waits
-- unmatched at its price until the market comes to it, the player cancels it,
-- its event goes in play (when the player chose to cancel it then) or its
-- market is settled. A bet's stake is what is matched (`matches`), what waits
-- (`unmatched`) and what was cancelled (`cancelled`); `odds` is the price asked.

-- `matches`: the matched parts, a JSON array of {"odds": price, "stake": paise}, best price first. NULL on rows
-- written before this migration (and by a server of the previous release during a rolling restart): the whole
-- stake matched at `odds`, as every bet then was.
ALTER TABLE bets
  ADD COLUMN unmatched bigint NOT NULL DEFAULT 0,
  ADD COLUMN cancelled bigint NOT NULL DEFAULT 0,
  ADD COLUMN matches jsonb,
  -- What the unmatched part does when the event goes in play: 'cancel' it, or 'keep' it waiting.
  ADD COLUMN persistence text NOT NULL DEFAULT 'keep' CHECK (persistence IN ('cancel', 'keep')),
  -- The version of the market's book the bet (or the last change of its price) was decided against: it took what
  -- that book offered, so what waits is matched only by a later book.
  ADD COLUMN book_version bigint;

-- A bet of which nothing was matched and everything cancelled is closed as 'cancelled' (profit_loss 0).
ALTER TABLE bets DROP CONSTRAINT bets_status_check;
ALTER TABLE bets ADD CONSTRAINT bets_status_check CHECK (status IN ('open', 'won', 'lost', 'void', 'cancelled'));
-- Nothing waits on a closed bet, and the parts never exceed the stake.
ALTER TABLE bets ADD CONSTRAINT bets_parts CHECK (unmatched >= 0 AND cancelled >= 0 AND unmatched + cancelled <= stake AND (status = 'open' OR unmatched = 0));

COMMENT ON COLUMN bets.profit IS 'What the bet could win as placed (its matched parts, and its unmatched part at the price asked).';
COMMENT ON COLUMN bets.liability IS 'What the bet could lose as placed (its matched parts, and its unmatched part at the price asked).';

-- The waiting bets of a market in the order they were placed: what the matcher reads when prices move.
CREATE INDEX bets_waiting ON bets (market_id, created_at, id) WHERE status = 'open' AND unmatched > 0;

-- A player's open bets on a market for a bet's decision (bet_inputs, 0083) now carry what waits and what is
-- matched at which price. A server of the previous release reads these rows as whole bets at `odds`; the next
-- bet decided by this release holds the market's worst case again.
CREATE OR REPLACE FUNCTION bet_position_query(p_user text, p_market text)
RETURNS TABLE (open_bets json, held_wallet smallint, held_exposure bigint) AS $$
  SELECT (SELECT json_agg(json_build_object('selectionId', b.selection_id, 'side', b.side, 'odds', b.odds, 'size', b.size, 'stake', b.stake,
                                            'unmatched', b.unmatched, 'matches', b.matches) ORDER BY b.id)
            FROM bets b WHERE b.user_id = p_user AND b.market_id = p_market AND b.status = 'open'),
         me.wallet, me.exposure
    FROM (SELECT) AS one
    LEFT JOIN market_exposures me ON me.user_id = p_user AND me.market_id = p_market
$$ LANGUAGE sql STABLE;

-- One-click betting: the stake a click on a price places (NULL: off, the bet slip opens).
ALTER TABLE betting_preferences ADD COLUMN one_click_stake bigint CHECK (one_click_stake > 0);
COMMENT ON COLUMN betting_preferences.accept_any_odds IS 'The bet slip''s "take the best available price" ticked by default (each bet says whether it takes it).';
