-- Each run of `npm run admin -- verify-ledger`: when, whether the ledger verified and how many problems it found.
-- The servers' metrics serve the newest (khel_ledger_verify_ok, khel_ledger_verify_timestamp_seconds), which an
-- alert watches; the command runs from cron or a systemd timer (deploy/khel-verify-ledger.timer).
CREATE TABLE ledger_verifications (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at           timestamptz NOT NULL DEFAULT now(),
  ok           boolean NOT NULL,
  transactions bigint NOT NULL CHECK (transactions >= 0),
  problems     integer NOT NULL CHECK (problems >= 0)
);
