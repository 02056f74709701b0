-- Integrity signals: signs of abuse for the operator to review (docs/security.md, "Integrity signals").
-- A reused or nearly reused payment reference, a payout account, device or address that players share.
-- One row per finding, recorded once (`key`: the kind, what was shared and the players), with the players
-- it involves in integrity_signal_players. The site acts on its own where a rule says so (a reused reference
-- is refused, a referral reward withheld); a signal is what the operator reads about it.
CREATE TABLE integrity_signals (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  kind text NOT NULL CHECK (kind IN ('duplicate_utr', 'near_duplicate_utr', 'shared_payout_account', 'shared_device', 'shared_address')),
  -- What was reused or shared, as the site saw it: the reference, the payout account, the device id, the address.
  subject text NOT NULL,
  -- One line for the operator: what happened and what the site did.
  detail text NOT NULL,
  -- Ids to follow (deposit requests, the referral), camelCase keys as stored.
  context jsonb NOT NULL DEFAULT '{}'::jsonb,
  key text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX integrity_signals_recent ON integrity_signals (created_at DESC, id DESC);
CREATE INDEX integrity_signals_kind ON integrity_signals (kind, created_at DESC);

CREATE TABLE integrity_signal_players (
  signal_id text NOT NULL REFERENCES integrity_signals(id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  PRIMARY KEY (signal_id, user_id)
);
CREATE INDEX integrity_signal_players_user ON integrity_signal_players (user_id);
