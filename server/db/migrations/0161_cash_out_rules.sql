-- Auto cash out: a player's rule for a market, a value to take (target) and/or a floor to stop a loss at, in paise.
-- The cash out it fires deletes it in the same transaction, so it fires once whichever server watches.
CREATE TABLE cash_out_rules (
  user_id    text NOT NULL REFERENCES users(id),
  market_id  text NOT NULL REFERENCES markets(id),
  target     bigint,
  floor      bigint,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, market_id),
  CHECK (target IS NOT NULL OR floor IS NOT NULL),
  CHECK (target IS NULL OR floor IS NULL OR floor < target)
);
CREATE INDEX cash_out_rules_market ON cash_out_rules (market_id);
