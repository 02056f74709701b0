-- Players and operators, their sessions, one-time codes and sign-in throttling.

CREATE TABLE users (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  name text NOT NULL,
  -- Lower-case, unique: players may sign in with it instead of the phone number.
  username text NOT NULL UNIQUE CHECK (username = lower(username)),
  -- E.164 (+91… or +1…).
  mobile_no text NOT NULL UNIQUE CHECK (mobile_no ~ '^\+[1-9][0-9]{6,14}$'),
  password_hash text NOT NULL,
  role smallint NOT NULL CHECK (role IN (1, 2, 3, 4, 5, 11, 101, 102, 103, 104)),
  -- 1: main balance, 2: bonus wallet.
  wallet smallint NOT NULL DEFAULT 1 CHECK (wallet IN (1, 2)),
  -- Credit players bet against this limit, in paise.
  credit_reference bigint NOT NULL DEFAULT 0 CHECK (credit_reference >= 0),
  referral_code text NOT NULL UNIQUE,
  referred_by text REFERENCES users(id),
  -- Self-registered players stay pending until their phone number is verified.
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('pending', 'active', 'suspended')),
  created_at timestamptz NOT NULL DEFAULT now(),
  password_changed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX users_referred_by ON users (referred_by);

CREATE TABLE sessions (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  user_id text NOT NULL REFERENCES users(id),
  -- SHA-256 of the bearer token; the token itself is never stored.
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  ip text,
  user_agent text
);
CREATE INDEX sessions_user ON sessions (user_id) WHERE revoked_at IS NULL;

CREATE TABLE otp_codes (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  mobile_no text NOT NULL,
  purpose text NOT NULL CHECK (purpose IN ('signup', 'reset')),
  code_hash text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz
);
CREATE INDEX otp_codes_phone ON otp_codes (mobile_no, purpose, created_at DESC);

-- Failed sign-ins, by account (`user:<id>`) and by address (`ip:<addr>`).
CREATE TABLE auth_failures (
  id bigserial PRIMARY KEY,
  key text NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auth_failures_key ON auth_failures (key, at DESC);
