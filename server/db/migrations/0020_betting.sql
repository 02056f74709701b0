-- Bets, the exposure each player holds per market, market results, stake
-- limits and the players' odds-change preference. Money in paise.

CREATE TABLE bets (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  user_id text NOT NULL REFERENCES users(id),
  market_id text NOT NULL REFERENCES markets(id),
  event_id text NOT NULL REFERENCES events(id),
  selection_id text NOT NULL,
  selection_name text NOT NULL,
  side text NOT NULL CHECK (side IN ('back', 'lay')),
  market_type text NOT NULL CHECK (market_type IN ('EXCHANGE', 'BOOKMAKER', 'FANCY')),
  -- Decimal odds, a bookmaker rate per 100, or a fancy run line.
  odds numeric(12, 2) NOT NULL CHECK (odds > 0 OR (market_type = 'FANCY' AND odds >= 0)),
  -- Fancy only: the size (rate per 100) of the line.
  size numeric(12, 2) CHECK ((market_type = 'FANCY') = (size IS NOT NULL) AND (size IS NULL OR size > 0)),
  stake bigint NOT NULL CHECK (stake > 0),
  -- What the bet wins, and what it can lose.
  profit bigint NOT NULL CHECK (profit >= 0),
  liability bigint NOT NULL CHECK (liability >= 0),
  -- The wallet it was placed from: 1 main balance, 2 bonus.
  wallet smallint NOT NULL CHECK (wallet IN (1, 2)),
  in_play boolean NOT NULL DEFAULT false,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'won', 'lost', 'void')),
  profit_loss bigint,
  created_at timestamptz NOT NULL DEFAULT now(),
  settled_at timestamptz,
  CHECK ((status = 'open') = (settled_at IS NULL) AND (status = 'open') = (profit_loss IS NULL))
);
CREATE INDEX bets_user_market_open ON bets (user_id, market_id) WHERE status = 'open';
CREATE INDEX bets_market_open ON bets (market_id) WHERE status = 'open';
CREATE INDEX bets_user_created ON bets (user_id, created_at DESC);

-- What is held for each player on each market: the market's worst case.
-- The player's exposure account equals the sum of these for the wallet.
CREATE TABLE market_exposures (
  user_id text NOT NULL REFERENCES users(id),
  market_id text NOT NULL REFERENCES markets(id),
  wallet smallint NOT NULL CHECK (wallet IN (1, 2)),
  exposure bigint NOT NULL CHECK (exposure >= 0),
  PRIMARY KEY (user_id, market_id)
);
CREATE INDEX market_exposures_market ON market_exposures (market_id);

-- One row per settled or voided market: the result is decided exactly once.
CREATE TABLE market_results (
  market_id text PRIMARY KEY REFERENCES markets(id),
  outcome text NOT NULL CHECK (outcome IN ('result', 'void')),
  -- The winning selection id, or the fancy result (runs); NULL when void.
  result text,
  settled_by text NOT NULL,
  reason text NOT NULL DEFAULT '',
  settled_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((outcome = 'void') = (result IS NULL))
);

-- Stake limits and the in-play bet delay. The most specific row applies:
-- event, then league, then sport, then the default row (all NULL).
CREATE TABLE bet_limits (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  sport_id text REFERENCES sports(id),
  league_id text REFERENCES leagues(id),
  event_id text REFERENCES events(id),
  min_stake bigint NOT NULL CHECK (min_stake > 0),
  max_stake bigint NOT NULL,
  -- Seconds an in-play bet waits before it is checked again and accepted.
  in_play_delay_seconds integer NOT NULL DEFAULT 0 CHECK (in_play_delay_seconds BETWEEN 0 AND 30),
  CHECK (max_stake >= min_stake),
  UNIQUE NULLS NOT DISTINCT (sport_id, league_id, event_id)
);
INSERT INTO bet_limits (sport_id, league_id, event_id, min_stake, max_stake, in_play_delay_seconds)
VALUES (NULL, NULL, NULL, 10000, 50000000, 2);

-- A player's choice: accept any odds change (true) or only the same or better (false, the default).
CREATE TABLE betting_preferences (
  user_id text PRIMARY KEY REFERENCES users(id),
  accept_any_odds boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now()
);
