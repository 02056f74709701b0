-- Khel Originals, the built-in game provider. Its records are its own: it
-- knows players only by the id the seamless wallet gives it.

-- One seed chain per game session: the hash of the next round's server seed
-- is shown before the bet; the seed itself once the round is over.
CREATE TABLE khel_tables (
  token_hash text PRIMARY KEY,
  player_id text NOT NULL,
  game text NOT NULL CHECK (game IN ('dragon-tiger', 'andar-bahar', 'lucky-lotus')),
  server_seed text NOT NULL CHECK (server_seed ~ '^[0-9a-f]{64}$'),
  commit_hash text NOT NULL CHECK (commit_hash ~ '^[0-9a-f]{64}$'),
  nonce integer NOT NULL DEFAULT 0 CHECK (nonce >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE khel_rounds (
  id text PRIMARY KEY,
  token_hash text NOT NULL REFERENCES khel_tables(token_hash),
  player_id text NOT NULL,
  game text NOT NULL,
  -- Stake per bet spot, in paise.
  bets jsonb NOT NULL,
  stake bigint NOT NULL CHECK (stake > 0),
  client_seed text NOT NULL CHECK (length(client_seed) BETWEEN 1 AND 64),
  server_seed text NOT NULL,
  commit_hash text NOT NULL,
  nonce integer NOT NULL,
  outcome jsonb,
  win bigint CHECK (win >= 0),
  -- pending: debit not confirmed; settling: debited, credit not confirmed;
  -- settled; rejected: the wallet refused the debit; cancelled: the debit was rolled back.
  status text NOT NULL CHECK (status IN ('pending', 'settling', 'settled', 'rejected', 'cancelled')),
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  settled_at timestamptz
);
CREATE INDEX khel_rounds_table ON khel_rounds (token_hash, created_at DESC);
CREATE INDEX khel_rounds_unfinished ON khel_rounds (status) WHERE status IN ('pending', 'settling');
