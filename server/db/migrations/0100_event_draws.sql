-- Draws no one can predict (server/odds/fair.ts, server/odds/Draws.ts). Every random draw that decides a
-- result comes from the event's seed, HMAC-SHA256(the feed's secret, "event:{event id}"): SHA-256 of the seed is
-- published before the event starts, the seed itself once it has settled.

-- The feed's secrets: 32 random bytes each, made by the server (never sent anywhere). New events are drawn from
-- the newest one not retired; `npm run admin -- rotate-feed-secret` retires it for a new one. A retired secret is
-- erased once every event drawn from it has revealed its seed (docs/operations.md, "The feed's secret").
CREATE TABLE feed_secrets (
  id integer PRIMARY KEY,
  secret text CHECK (secret ~ '^[0-9a-f]{64}$'),
  created_at timestamptz NOT NULL DEFAULT now(),
  retired_at timestamptz,
  erased_at timestamptz,
  CHECK ((secret IS NULL) = (erased_at IS NOT NULL)),
  CHECK (erased_at IS NULL OR retired_at IS NOT NULL)
);

-- Which secret each event is drawn from (fixed when the event is made, so its commitment never changes), and
-- its seed once revealed.
CREATE TABLE event_draws (
  event_id text PRIMARY KEY REFERENCES events (id),
  secret_id integer NOT NULL REFERENCES feed_secrets (id),
  seed text CHECK (seed ~ '^[0-9a-f]{64}$'),
  revealed_at timestamptz,
  CHECK ((seed IS NULL) = (revealed_at IS NULL))
);
CREATE INDEX event_draws_unrevealed ON event_draws (secret_id) WHERE seed IS NULL;

-- Every event is committed to the current secret as it is made, whoever makes it (the demo data, the next
-- fixture, an operator).
CREATE FUNCTION event_draw_committed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO event_draws (event_id, secret_id)
  SELECT NEW.id, max(id) FROM feed_secrets WHERE retired_at IS NULL;
  RETURN NULL;
END
$$;
CREATE TRIGGER event_draw_committed AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION event_draw_committed();
