-- Web Push (server/push/Push.ts). A browser's subscription, by its endpoint (one per browser and site), belongs to
-- the session that made it: a push goes only while that session lives, and logging out removes it. A new sign-in
-- on the same browser takes the endpoint over.
CREATE TABLE push_subscriptions (
  endpoint text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id),
  session_id text NOT NULL REFERENCES sessions(id),
  -- The browser's keys (base64url): the payload is encrypted to them (RFC 8291).
  p256dh text NOT NULL,
  auth text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id);
CREATE INDEX push_subscriptions_session ON push_subscriptions (session_id);

-- Notifications that must go once however many servers look for them (a match's reminder): the first server to
-- insert the key sends it.
CREATE TABLE push_sent (
  key text PRIMARY KEY,
  sent_at timestamptz NOT NULL DEFAULT now()
);
