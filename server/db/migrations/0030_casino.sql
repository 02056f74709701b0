-- The casino: providers (each signing its wallet calls with its own secret),
-- the game catalogue, game sessions (launch tokens), and the seamless
-- wallet's rounds and transactions. Money itself moves in the ledger.

CREATE TABLE casino_providers (
  code text PRIMARY KEY CHECK (code ~ '^[a-z0-9-]{2,32}$'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
  -- The HMAC-SHA256 key the provider signs wallet calls with; NULL refuses them all.
  wallet_secret text,
  -- Launch URL template ({table_id}, {game_id}, {token}, {lobby}); NULL: its games are unavailable.
  launch_url text,
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The three partners are listed but not connected until an operator sets their
-- launch URL and wallet secret; Khel Originals is the built-in provider.
INSERT INTO casino_providers (code, name, launch_url) VALUES
  ('ezugi', 'Ezugi', NULL),
  ('evolution', 'Evolution', NULL),
  ('sa', 'SA Gaming', NULL),
  ('khel', 'Khel Originals', '/games/khel/{game_id}?token={token}&lobby={lobby}');

CREATE TABLE casino_games (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  provider text NOT NULL REFERENCES casino_providers(code),
  -- live: a table, launched by table_id; slot: launched by game_id. SA Gaming has its own lobby.
  kind text NOT NULL CHECK (kind IN ('live', 'slot')),
  table_id text NOT NULL DEFAULT '' CHECK (length(table_id) <= 100),
  game_id text NOT NULL CHECK (length(game_id) BETWEEN 1 AND 100),
  title text NOT NULL CHECK (length(title) BETWEEN 1 AND 80),
  -- As entered; the API lists unknown categories under Other.
  category text NOT NULL CHECK (length(category) <= 40),
  slug text NOT NULL CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  sort integer NOT NULL DEFAULT 0,
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (provider, game_id),
  UNIQUE (provider, slug)
);
CREATE UNIQUE INDEX casino_games_table ON casino_games (provider, table_id) WHERE table_id <> '';
CREATE INDEX casino_games_lobby ON casino_games (kind, sort, title) WHERE enabled;

-- A launch: the token a provider receives in the game URL and passes back on
-- wallet calls. Only its SHA-256 is kept.
CREATE TABLE casino_sessions (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  token_hash text NOT NULL UNIQUE,
  user_id text NOT NULL REFERENCES users(id),
  provider text NOT NULL REFERENCES casino_providers(code),
  game_id text NOT NULL REFERENCES casino_games(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX casino_sessions_user ON casino_sessions (user_id, created_at DESC);

-- A provider's round: its stake (debits), win (credit) and refunds (rollbacks), in paise.
CREATE TABLE casino_rounds (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  provider text NOT NULL REFERENCES casino_providers(code),
  round_id text NOT NULL CHECK (length(round_id) BETWEEN 1 AND 100),
  user_id text NOT NULL REFERENCES users(id),
  game_id text NOT NULL REFERENCES casino_games(id),
  stake bigint NOT NULL DEFAULT 0 CHECK (stake >= 0),
  win bigint NOT NULL DEFAULT 0 CHECK (win >= 0),
  refunded bigint NOT NULL DEFAULT 0 CHECK (refunded >= 0 AND refunded <= stake),
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'settled', 'cancelled')),
  created_at timestamptz NOT NULL DEFAULT now(),
  settled_at timestamptz,
  UNIQUE (provider, round_id),
  CHECK ((status = 'open') = (settled_at IS NULL))
);
CREATE INDEX casino_rounds_user ON casino_rounds (user_id, created_at);

-- Every wallet call that was accepted, by the provider's transaction id. A
-- rollback naming a debit never seen is kept too (round_id NULL), so that
-- debit is refused if it arrives late.
CREATE TABLE casino_transactions (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  provider text NOT NULL REFERENCES casino_providers(code),
  transaction_id text NOT NULL CHECK (length(transaction_id) BETWEEN 1 AND 100),
  kind text NOT NULL CHECK (kind IN ('debit', 'credit', 'rollback')),
  round_id text REFERENCES casino_rounds(id),
  user_id text NOT NULL REFERENCES users(id),
  amount bigint NOT NULL CHECK (amount >= 0),
  -- Rollbacks: the debit they cancel.
  ref_transaction_id text,
  -- Debits: cancelled by a rollback.
  rolled_back boolean NOT NULL DEFAULT false,
  -- NULL when no money moved (a zero credit, a rollback of an unknown debit).
  ledger_transaction_id text REFERENCES ledger_transactions(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (provider, transaction_id),
  CHECK ((kind = 'rollback') = (ref_transaction_id IS NOT NULL)),
  CHECK (kind <> 'debit' OR amount > 0),
  CHECK (kind = 'debit' OR NOT rolled_back),
  CHECK (kind = 'rollback' OR round_id IS NOT NULL)
);
CREATE INDEX casino_transactions_ref ON casino_transactions (provider, ref_transaction_id) WHERE ref_transaction_id IS NOT NULL;
CREATE INDEX casino_transactions_round ON casino_transactions (round_id);

-- Operator switches; credit players may play unless an operator says otherwise.
INSERT INTO app_settings (key, value) VALUES ('casino', '{"creditPlayersAllowed": true}'::jsonb) ON CONFLICT (key) DO NOTHING;
