-- A game session lives only as long as the site session it was launched
-- from: logging out or changing the password ends the games too.
ALTER TABLE casino_sessions ADD COLUMN session_id text REFERENCES sessions(id);
CREATE INDEX casino_sessions_session ON casino_sessions (session_id);
-- Launches made before this migration have no parent session: they end now.
UPDATE casino_sessions SET expires_at = least(expires_at, now()) WHERE session_id IS NULL;
