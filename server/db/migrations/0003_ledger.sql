-- A double-entry ledger. Every movement of money is one transaction whose
-- entries sum to zero; account balances move with their entries in the same
-- database transaction, and CHECK constraints make an overdraft impossible.

CREATE TABLE ledger_accounts (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  -- NULL for the operator's own accounts (house, clearing accounts).
  user_id text REFERENCES users(id),
  -- main, bonus, exposure, withdrawal_hold, ref_bonus for players;
  -- house, deposits, withdrawals, bonus_expense, … for the operator.
  kind text NOT NULL,
  balance bigint NOT NULL DEFAULT 0,
  -- The lowest the balance may go: 0 for player money; -credit for a credit
  -- player's main account; NULL (no floor) for the operator's accounts,
  -- which mirror money in the outside world.
  floor bigint DEFAULT 0,
  CONSTRAINT ledger_accounts_no_overdraft CHECK (floor IS NULL OR balance >= floor),
  UNIQUE NULLS NOT DISTINCT (user_id, kind)
);

CREATE TABLE ledger_transactions (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  kind text NOT NULL,
  -- The player the movement is about, if any (statements read by it).
  user_id text REFERENCES users(id),
  -- What it belongs to (a deposit request, a bet, a market…), for look-ups and exactly-once rules.
  reference text,
  description text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ledger_transactions_user ON ledger_transactions (user_id, created_at);
CREATE INDEX ledger_transactions_reference ON ledger_transactions (reference);

CREATE TABLE ledger_entries (
  id bigserial PRIMARY KEY,
  transaction_id text NOT NULL REFERENCES ledger_transactions(id),
  account_id text NOT NULL REFERENCES ledger_accounts(id),
  amount bigint NOT NULL CHECK (amount <> 0),
  balance_after bigint NOT NULL
);
CREATE INDEX ledger_entries_transaction ON ledger_entries (transaction_id);
CREATE INDEX ledger_entries_account ON ledger_entries (account_id, id);

-- At commit, every transaction touched must balance.
CREATE FUNCTION ledger_transaction_balances() RETURNS trigger AS $$
DECLARE
  total bigint;
BEGIN
  SELECT coalesce(sum(amount), 0) INTO total FROM ledger_entries WHERE transaction_id = NEW.transaction_id;
  IF total <> 0 THEN
    RAISE EXCEPTION 'ledger transaction % does not balance (sum %)', NEW.transaction_id, total USING ERRCODE = '23514';
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE CONSTRAINT TRIGGER ledger_entries_balance
  AFTER INSERT ON ledger_entries
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION ledger_transaction_balances();

-- Entries are history: they are never changed or removed.
CREATE FUNCTION ledger_entries_append_only() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'ledger entries are append-only';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER ledger_entries_no_change
  BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_entries_append_only();

-- Idempotency-Key: the first response of a money-moving write, kept with the
-- request's fingerprint, so a replay gets the same answer and moves nothing.
CREATE TABLE idempotency_keys (
  user_id text NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  status integer NOT NULL,
  response jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, key)
);
