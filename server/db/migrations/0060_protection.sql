-- Player protection (docs/protection.md): what players declared at sign-up,
-- their limits with cooling-off, reality checks, time-outs and self-exclusion,
-- the amounts limits count, play sessions, and an append-only audit of every
-- change. Times that rules compare are written from the server's clock (which
-- tests can move), never from now(). Money in paise.

CREATE TABLE player_protection (
  user_id text PRIMARY KEY REFERENCES users(id),
  -- ISO 3166-2:IN code without the prefix, as declared at sign-up.
  region text CHECK (region ~ '^[A-Z]{2}$'),
  -- When the player confirmed being 18 or older and accepted the terms.
  age_confirmed_at timestamptz,
  reality_check_minutes smallint NOT NULL DEFAULT 0 CHECK (reality_check_minutes IN (0, 15, 30, 60)),
  time_out_started_at timestamptz,
  time_out_until timestamptz,
  excluded_at timestamptz,
  excluded_until timestamptz,
  -- After an exclusion has ended, the account reopens 24 hours after the player asks to return.
  return_requested_at timestamptz,
  CHECK ((time_out_started_at IS NULL) = (time_out_until IS NULL) AND (time_out_until IS NULL OR time_out_until > time_out_started_at)),
  CHECK ((excluded_at IS NULL) = (excluded_until IS NULL) AND (excluded_until IS NULL OR excluded_until > excluded_at)),
  CHECK (return_requested_at IS NULL OR return_requested_at >= excluded_until)
);

-- A time-out or a self-exclusion is never shortened nor lifted, by anyone: the end only ever moves later.
CREATE FUNCTION player_protection_never_shortened() RETURNS trigger AS $$
BEGIN
  IF OLD.time_out_until IS NOT NULL AND (NEW.time_out_until IS NULL OR NEW.time_out_until < OLD.time_out_until) THEN
    RAISE EXCEPTION 'a time-out cannot be shortened or lifted' USING ERRCODE = '23514';
  END IF;
  IF OLD.excluded_until IS NOT NULL AND (NEW.excluded_until IS NULL OR NEW.excluded_until < OLD.excluded_until) THEN
    RAISE EXCEPTION 'a self-exclusion cannot be shortened or lifted' USING ERRCODE = '23514';
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER player_protection_no_shortening
  BEFORE UPDATE ON player_protection
  FOR EACH ROW EXECUTE FUNCTION player_protection_never_shortened();

CREATE FUNCTION player_protection_kept() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'player protection records are kept';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER player_protection_no_delete
  BEFORE DELETE ON player_protection
  FOR EACH ROW EXECUTE FUNCTION player_protection_kept();

-- A limit in force and its pending increase or removal. A first limit or a
-- decrease is in force at once; an increase or removal waits until the player
-- confirms it, 24 hours after asking at the earliest.
CREATE TABLE protection_limits (
  user_id text NOT NULL REFERENCES users(id),
  kind text NOT NULL CHECK (kind IN ('deposit', 'loss')),
  period text NOT NULL CHECK (period IN ('day', 'week', 'month')),
  amount bigint CHECK (amount > 0),
  in_force_since timestamptz,
  pending_amount bigint CHECK (pending_amount > 0),
  pending_removal boolean NOT NULL DEFAULT false,
  requested_at timestamptz,
  confirmable_at timestamptz,
  PRIMARY KEY (user_id, kind, period),
  CHECK ((amount IS NULL) = (in_force_since IS NULL)),
  CHECK (NOT (pending_removal AND pending_amount IS NOT NULL)),
  -- Something is pending exactly when a request time is recorded, and only over a limit in force.
  CHECK ((requested_at IS NOT NULL) = (pending_removal OR pending_amount IS NOT NULL)),
  CHECK ((requested_at IS NULL) = (confirmable_at IS NULL)),
  CHECK (requested_at IS NULL OR amount IS NOT NULL)
);

-- Deposits as deposit limits count them: the gross amount requested, at the
-- time it was requested. A request the operator rejects stops counting (no
-- money arrived); withdrawals never give anything back.
CREATE TABLE protection_deposits (
  deposit_id text PRIMARY KEY REFERENCES deposit_requests(id),
  user_id text NOT NULL REFERENCES users(id),
  amount bigint NOT NULL CHECK (amount > 0),
  at timestamptz NOT NULL
);
CREATE INDEX protection_deposits_user ON protection_deposits (user_id, at);

-- Results of play as loss limits, reality checks and the activity statement
-- count them: the player's net, positive won, negative lost. A casino stake
-- counts as lost when it is debited (its worst case), and its win or refund
-- comes back when credited; a sports market counts when it is settled.
CREATE TABLE protection_results (
  id bigserial PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id),
  source text NOT NULL CHECK (source IN ('sports', 'casino')),
  amount bigint NOT NULL CHECK (amount <> 0),
  reference text NOT NULL,
  at timestamptz NOT NULL
);
CREATE INDEX protection_results_user ON protection_results (user_id, at);

-- Sessions of play: a player's activity with no gap of 30 minutes. Reality
-- checks run over the current one; time spent is the sum of their lengths.
CREATE TABLE play_sessions (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  user_id text NOT NULL REFERENCES users(id),
  started_at timestamptz NOT NULL,
  last_active_at timestamptz NOT NULL,
  -- When the player last answered a reality check (or chose its interval).
  reminded_at timestamptz,
  CHECK (last_active_at >= started_at)
);
CREATE INDEX play_sessions_user ON play_sessions (user_id, started_at DESC);

-- Every change to a player's protection (and to the operator's switches, with
-- user_id NULL): who, what, when, from which address. Append-only.
CREATE TABLE protection_audit (
  id bigserial PRIMARY KEY,
  user_id text REFERENCES users(id),
  -- A user id (the player or an operator), 'cli', or 'system'.
  actor text NOT NULL,
  action text NOT NULL,
  detail jsonb NOT NULL DEFAULT '{}'::jsonb,
  ip text,
  at timestamptz NOT NULL
);
CREATE INDEX protection_audit_user ON protection_audit (user_id, id DESC);

CREATE FUNCTION protection_audit_append_only() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'the protection audit is append-only';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER protection_audit_no_change
  BEFORE UPDATE OR DELETE ON protection_audit
  FOR EACH ROW EXECUTE FUNCTION protection_audit_append_only();

CREATE TRIGGER protection_audit_no_truncate
  BEFORE TRUNCATE ON protection_audit
  FOR EACH STATEMENT EXECUTE FUNCTION protection_audit_append_only();

-- Marketing banners (offers, promotions) are not shown to players on a time-out or self-excluded.
ALTER TABLE banners ADD COLUMN marketing boolean NOT NULL DEFAULT true;

-- What happened before this migration counts too: deposit requests and results of play.
INSERT INTO protection_deposits (deposit_id, user_id, amount, at)
SELECT id, user_id, amount, created_at FROM deposit_requests;

INSERT INTO protection_results (user_id, source, amount, reference, at)
SELECT t.user_id, CASE WHEN t.kind = 'bet.settle' THEN 'sports' ELSE 'casino' END, net.amount, coalesce(t.reference, t.id), t.created_at
  FROM ledger_transactions t
  JOIN LATERAL (
    SELECT sum(e.amount) AS amount
      FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
     WHERE e.transaction_id = t.id AND a.user_id = t.user_id
  ) net ON true
 WHERE t.kind IN ('bet.settle', 'casino_debit', 'casino_credit', 'casino_rollback')
   AND t.user_id IS NOT NULL AND net.amount <> 0;
