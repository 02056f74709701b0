-- Several servers, one source of odds (server/odds/cluster.ts). One server at a time leads (an advisory lock
-- on a connection of its own) and runs the simulator; it writes every book and score it publishes here,
-- numbered from odds_seq, and every server serves what it reads back. A new leader carries on from these rows.

CREATE SEQUENCE odds_seq;

-- The latest book of each market, with the model behind it (chances, fancy line, priced by hand).
CREATE TABLE odds_books (
  market_id text PRIMARY KEY REFERENCES markets (external_id),
  event_id text NOT NULL REFERENCES events (id),
  sort integer NOT NULL,
  book jsonb NOT NULL,
  model jsonb NOT NULL,
  seq bigint NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX odds_books_seq ON odds_books (seq);

CREATE TABLE odds_scores (
  event_id text PRIMARY KEY REFERENCES events (id),
  score jsonb NOT NULL,
  seq bigint NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX odds_scores_seq ON odds_scores (seq);

-- Every leadership: which server, since when, its first and last write (the database's clock), so a
-- takeover's gap is measured where it happened.
CREATE TABLE odds_leaders (
  epoch bigint PRIMARY KEY,
  holder text NOT NULL,
  since timestamptz NOT NULL,
  first_write_at timestamptz,
  last_write_at timestamptz
);

-- socket.io's PostgreSQL adapter keeps messages too large for NOTIFY here (@socket.io/postgres-adapter).
CREATE TABLE socket_io_attachments (
  id bigserial UNIQUE,
  created_at timestamptz DEFAULT now(),
  payload bytea
);
