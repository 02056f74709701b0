-- Keys the servers sign with: made once per database, shared by every server on it, never sent. `visitor` signs
-- the visitor cookie (server/edge/visitors.ts). To rotate one, delete its row and restart the servers: the first
-- to start makes a new key, and cookies signed with the old one are no longer taken (browsers get new ones).
CREATE TABLE server_keys (
  name text PRIMARY KEY,
  secret text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The browser a session signed in from: the visitor id of the cookie the site's pages gave it (NULL without one).
ALTER TABLE sessions ADD COLUMN device text;
CREATE INDEX sessions_device ON sessions (device) WHERE device IS NOT NULL;
CREATE INDEX sessions_user_ip ON sessions (user_id, ip) WHERE ip IS NOT NULL;
