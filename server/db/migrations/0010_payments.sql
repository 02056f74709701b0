-- Wallet and payments: the operator's deposit accounts, players' own payout
-- accounts, uploaded screenshots, deposit and withdrawal requests, bonuses and
-- referral rewards. Money itself only ever moves in the ledger (0003); these
-- tables hold the requests and the rules that decide when it moves.

-- Where players send money: the operator's UPI ids (with a QR) and bank accounts.
CREATE TABLE deposit_accounts (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  type text NOT NULL CHECK (type IN ('upi', 'bank')),
  -- The UPI id for type upi.
  account_number text NOT NULL,
  account_holder_name text NOT NULL,
  bank_name text,
  ifsc_code text,
  account_type text CHECK (account_type IN ('savings', 'current')),
  -- A data URL of the QR image (UPI), shown on the deposit page.
  image text,
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (type, account_number)
);

-- Where a player asks to be paid.
CREATE TABLE payment_accounts (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  user_id text NOT NULL REFERENCES users(id),
  type text NOT NULL CHECK (type IN ('upi', 'bank')),
  account_number text NOT NULL,
  account_holder_name text NOT NULL,
  bank_name text,
  ifsc_code text,
  account_type text CHECK (account_type IN ('savings', 'current')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, type, account_number),
  CHECK (type = 'upi' OR (bank_name IS NOT NULL AND ifsc_code IS NOT NULL AND account_type IS NOT NULL))
);

-- Screenshots, re-encoded and stored under $DATA_DIR/uploads/<file>; readable by the owner and operators.
CREATE TABLE uploads (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id),
  file text NOT NULL UNIQUE,
  mime text NOT NULL,
  bytes integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE deposit_requests (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  user_id text NOT NULL REFERENCES users(id),
  account_id text NOT NULL REFERENCES deposit_accounts(id),
  type text NOT NULL CHECK (type IN ('upi', 'bank')),
  amount bigint NOT NULL CHECK (amount > 0),
  txn_ref text,
  screenshot_id text REFERENCES uploads(id),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
  remark text,
  decided_by text,
  decided_at timestamptz,
  -- The ledger transaction that credited the player, once approved.
  ledger_transaction_id text REFERENCES ledger_transactions(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (txn_ref IS NOT NULL OR screenshot_id IS NOT NULL),
  CHECK ((status = 'approved') = (ledger_transaction_id IS NOT NULL))
);
CREATE INDEX deposit_requests_user ON deposit_requests (user_id, created_at);
CREATE INDEX deposit_requests_status ON deposit_requests (status, created_at);

CREATE TABLE withdrawal_requests (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  user_id text NOT NULL REFERENCES users(id),
  account_id text NOT NULL REFERENCES payment_accounts(id),
  -- The payout account as it was when the request was made (accounts may be edited later).
  account jsonb NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
  remark text,
  decided_by text,
  decided_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX withdrawal_requests_user ON withdrawal_requests (user_id, created_at);
CREATE INDEX withdrawal_requests_status ON withdrawal_requests (status, created_at);

-- A bonus offered to a player: available -> active (credited to the bonus
-- wallet) -> completed (wagering met) -> claimed (moved to main); or forfeited.
CREATE TABLE bonuses (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  user_id text NOT NULL REFERENCES users(id),
  code text NOT NULL,
  title text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  -- Settled stakes (paise) the player must wager before the bonus can be claimed.
  wagering_required bigint NOT NULL CHECK (wagering_required >= 0),
  wagered bigint NOT NULL DEFAULT 0 CHECK (wagered >= 0),
  status text NOT NULL DEFAULT 'available' CHECK (status IN ('available', 'active', 'completed', 'claimed', 'forfeited')),
  -- What the offer came from (the first deposit, an operator grant…), so it is offered once.
  source text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  activated_at timestamptz,
  finished_at timestamptz,
  UNIQUE (user_id, source)
);
-- One bonus in play at a time: the bonus wallet belongs to it.
CREATE UNIQUE INDEX bonuses_one_in_play ON bonuses (user_id) WHERE status IN ('active', 'completed');

-- A referrer is rewarded once per referred player, on that player's first approved deposit.
CREATE TABLE referral_rewards (
  referred_user_id text PRIMARY KEY REFERENCES users(id),
  referrer_id text NOT NULL REFERENCES users(id),
  deposit_id text NOT NULL REFERENCES deposit_requests(id),
  amount bigint NOT NULL CHECK (amount > 0),
  ledger_transaction_id text NOT NULL REFERENCES ledger_transactions(id),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX referral_rewards_referrer ON referral_rewards (referrer_id, created_at);

-- Belt and braces for exactly-once money: one ledger transaction per request and kind.
CREATE UNIQUE INDEX ledger_transactions_once ON ledger_transactions (kind, reference)
  WHERE kind IN ('deposit', 'withdrawal_hold', 'withdrawal_paid', 'withdrawal_rejected', 'bonus_activate', 'bonus_claim', 'referral_reward')
    AND reference IS NOT NULL AND reference <> 'demo-seed';
