-- The sports catalogue, banners and site settings of the foundation.

CREATE TABLE sports (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  name text NOT NULL,
  slug text NOT NULL UNIQUE,
  code text NOT NULL UNIQUE,
  -- Racing sports are grouped by country and track instead of league.
  is_racing boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- A league, or for racing a track (with its country).
CREATE TABLE leagues (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  sport_id text NOT NULL REFERENCES sports(id),
  name text NOT NULL,
  slug text NOT NULL,
  country_code text,
  country_name text,
  UNIQUE (sport_id, slug)
);

CREATE TABLE events (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  -- The feed's numeric id (the `id` field of the API), distinct from `_id`.
  external_id text NOT NULL UNIQUE,
  league_id text NOT NULL REFERENCES leagues(id),
  name text NOT NULL,
  slug text NOT NULL,
  starts_at timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'live', 'finished', 'cancelled')),
  UNIQUE (league_id, slug)
);
CREATE INDEX events_starts_at ON events (starts_at);

CREATE TABLE markets (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  external_id text NOT NULL UNIQUE,
  event_id text NOT NULL REFERENCES events(id),
  name text NOT NULL,
  market_type text NOT NULL CHECK (market_type IN ('EXCHANGE', 'BOOKMAKER', 'FANCY')),
  status text NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN', 'SUSPENDED', 'CLOSED', 'SETTLED', 'VOID')),
  starts_at timestamptz NOT NULL,
  sort integer NOT NULL DEFAULT 0
);
CREATE INDEX markets_event ON markets (event_id);

CREATE TABLE runners (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  selection_id text NOT NULL,
  market_id text NOT NULL REFERENCES markets(id),
  name text NOT NULL,
  sort integer NOT NULL DEFAULT 0,
  UNIQUE (market_id, selection_id)
);

CREATE TABLE banners (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  sort_order integer NOT NULL,
  title text NOT NULL,
  image text NOT NULL,
  active boolean NOT NULL DEFAULT true
);

-- Site settings, contacts and socials, one JSON document per key.
CREATE TABLE app_settings (
  key text PRIMARY KEY,
  value jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
