-- Rate limits (sign-in, SMS, reset codes) kept by rate-limiter-flexible's
-- PostgreSQL store, so every server counts against the same numbers. The
-- embedded database keeps them in memory instead; the table stays empty there.
CREATE TABLE rate_limits (
  key varchar(255) PRIMARY KEY,
  points integer NOT NULL DEFAULT 0,
  -- Unix milliseconds; NULL never expires.
  expire bigint
);
CREATE INDEX rate_limits_expire ON rate_limits (expire);

-- Sign-in failures are counted in rate_limits now, per address and account.
DROP TABLE auth_failures;

-- Unverified sign-ups are removed after a while: found by age.
CREATE INDEX users_pending ON users (created_at) WHERE status = 'pending';
