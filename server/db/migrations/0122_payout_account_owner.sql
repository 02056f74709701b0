-- A payout account belongs to one player. Its key: a UPI id (lower case), or a bank account by its bank (the
-- IFSC's first four letters) and number. The first player to add it owns it (payout_account_owners); another who
-- tries is refused and signalled. Accounts added before this rule: the earliest holder owns each, and every key
-- several players hold becomes an integrity signal (their withdrawals to it are refused but the owner's).
CREATE FUNCTION payout_key(kind text, number text, ifsc text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE kind WHEN 'upi' THEN 'upi:' || lower(btrim(number))
                   ELSE 'bank:' || upper(left(btrim(coalesce(ifsc, '')), 4)) || ':' || btrim(number) END
$$;

ALTER TABLE payment_accounts ADD COLUMN payout_key text GENERATED ALWAYS AS (payout_key(type, account_number, ifsc_code)) STORED;
CREATE INDEX payment_accounts_payout_key ON payment_accounts (payout_key);

CREATE TABLE payout_account_owners (
  key text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payout_account_owners_user ON payout_account_owners (user_id);

INSERT INTO payout_account_owners (key, user_id, created_at)
SELECT DISTINCT ON (payout_key) payout_key, user_id, created_at
  FROM payment_accounts
 ORDER BY payout_key, created_at, id;

-- The key is Signals' signalKey: kind|subject|player ids sorted (byte order, as JavaScript sorts them).
WITH shared AS (
  SELECT payout_key, string_agg(DISTINCT user_id COLLATE "C", ',' ORDER BY user_id COLLATE "C") AS players, count(DISTINCT user_id) AS holders
    FROM payment_accounts GROUP BY payout_key HAVING count(DISTINCT user_id) > 1
),
signals AS (
  INSERT INTO integrity_signals (kind, subject, detail, key)
  SELECT 'shared_payout_account', payout_key,
         'Payout account ' || payout_key || ' was added by ' || holders || ' players before accounts were checked; only the first may withdraw to it',
         'shared_payout_account|' || payout_key || '|' || players
    FROM shared
  ON CONFLICT (key) DO NOTHING
  RETURNING id, subject
)
INSERT INTO integrity_signal_players (signal_id, user_id)
SELECT DISTINCT s.id, p.user_id FROM signals s JOIN payment_accounts p ON p.payout_key = s.subject;
