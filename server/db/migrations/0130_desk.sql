-- The operator's desk (/admin): staff sessions and their second factor, the
-- staff audit (append-only), claims on requests, players' notes and the
-- four-eyes approvals (docs/backoffice.md).

-- A desk session is a session of its own kind: it ends 12 hours after sign-in
-- or after 30 minutes without a request, and only it opens the desk's endpoints.
ALTER TABLE sessions ADD COLUMN scope text NOT NULL DEFAULT 'player' CHECK (scope IN ('player', 'desk'));

-- A staff member's TOTP secret (RFC 6238, base32). A new one waits in
-- `pending_secret` until a first code from the authenticator app proves it was
-- enrolled; `last_step` is the newest 30-second step a code was accepted for,
-- so a code is never accepted twice.
CREATE TABLE staff_second_factors (
  user_id text PRIMARY KEY REFERENCES users(id),
  secret text,
  confirmed_at timestamptz,
  pending_secret text,
  last_step bigint NOT NULL DEFAULT 0,
  CHECK ((secret IS NULL) = (confirmed_at IS NULL))
);

-- Every staff action: who (and their role then), when, from which address,
-- what, on which record, the record before and after. Append-only.
CREATE TABLE staff_audit (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  -- The staff member's user id; NULL for the command line and the system.
  actor_id text REFERENCES users(id),
  -- Their username then, 'cli' or 'system'.
  actor text NOT NULL,
  actor_role smallint,
  ip text,
  -- What was done: 'deposit.approve', 'market.settle', 'staff.create', …
  action text NOT NULL,
  -- The record it was done to: ('deposit', id), ('player', id), ('market', id)…
  subject_kind text,
  subject_id text,
  before jsonb,
  after jsonb
);
CREATE INDEX staff_audit_at ON staff_audit (at DESC, id DESC);
CREATE INDEX staff_audit_subject ON staff_audit (subject_kind, subject_id, id DESC);
CREATE INDEX staff_audit_actor ON staff_audit (actor, id DESC);

CREATE FUNCTION staff_audit_append_only() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'the staff audit is append-only';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER staff_audit_no_change
  BEFORE UPDATE OR DELETE ON staff_audit
  FOR EACH ROW EXECUTE FUNCTION staff_audit_append_only();

CREATE TRIGGER staff_audit_no_truncate
  BEFORE TRUNCATE ON staff_audit
  FOR EACH STATEMENT EXECUTE FUNCTION staff_audit_append_only();

-- One staff member at a time works a request: the claim is theirs until they
-- decide it, let it go, or leave it untouched for CLAIM_MINUTES.
ALTER TABLE deposit_requests ADD COLUMN claimed_by text REFERENCES users(id), ADD COLUMN claimed_at timestamptz;
ALTER TABLE withdrawal_requests ADD COLUMN claimed_by text REFERENCES users(id), ADD COLUMN claimed_at timestamptz,
  -- The bank's reference of the payout, when it is marked paid.
  ADD COLUMN payout_reference text;

-- The queues page newest or oldest first by (created_at, id) under a status.
CREATE INDEX deposit_requests_queue ON deposit_requests (status, created_at, id);
CREATE INDEX withdrawal_requests_queue ON withdrawal_requests (status, created_at, id);
-- The same payment reference used before, by anyone (spaces and case ignored).
CREATE INDEX deposit_requests_reference ON deposit_requests (upper(regexp_replace(txn_ref, '\s', '', 'g')), created_at) WHERE txn_ref IS NOT NULL;
-- Players are found by name, username or mobile number.
CREATE INDEX users_name_lower ON users (lower(name) text_pattern_ops);

CREATE TABLE player_notes (
  id bigserial PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id),
  author_id text REFERENCES users(id),
  author text NOT NULL,
  body text NOT NULL CHECK (length(body) BETWEEN 1 AND 2000),
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX player_notes_user ON player_notes (user_id, id DESC);

-- Four eyes: an action above its threshold waits here until a second staff
-- member approves (then it runs, in the same transaction) or rejects it.
CREATE TABLE desk_approvals (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  kind text NOT NULL CHECK (kind IN ('adjustment', 'settle', 'void')),
  -- The player (adjustment) or the market's feed id (settle, void).
  subject text NOT NULL,
  -- What will be done: the adjustment, the result or the void's reason.
  payload jsonb NOT NULL,
  -- The adjustment's amount, or the market's liability when it was asked for, in paise.
  amount bigint NOT NULL,
  requested_by text NOT NULL REFERENCES users(id),
  requested_at timestamptz NOT NULL DEFAULT now(),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected', 'cancelled')),
  decided_by text REFERENCES users(id),
  decided_at timestamptz,
  remark text,
  CHECK ((status = 'pending') = (decided_at IS NULL)),
  -- The second pair of eyes is another person's.
  CHECK (status NOT IN ('approved', 'rejected') OR decided_by <> requested_by)
);
CREATE INDEX desk_approvals_pending ON desk_approvals (requested_at) WHERE status = 'pending';
-- A market waits for one decision at a time.
CREATE UNIQUE INDEX desk_approvals_one_per_market ON desk_approvals (subject) WHERE status = 'pending' AND kind IN ('settle', 'void');
