-- An unverified sign-up that expires (PENDING_SIGNUP_HOURS, docs/security.md) is removed with what it
-- declared at sign-up (its state, its age confirmation, the operator's default limits). The audit keeps
-- its record of that sign-up: the audit is a log that outlives the row it names, so it no longer
-- references users. A verified player's protection records are still never deleted.

ALTER TABLE protection_audit DROP CONSTRAINT protection_audit_user_id_fkey;

ALTER TABLE player_protection DROP CONSTRAINT player_protection_user_id_fkey,
  ADD CONSTRAINT player_protection_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;
ALTER TABLE protection_limits DROP CONSTRAINT protection_limits_user_id_fkey,
  ADD CONSTRAINT protection_limits_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;

-- Kept unless they belong to an account that never became a player (pending, or being removed as one).
CREATE OR REPLACE FUNCTION player_protection_kept() RETURNS trigger AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM users WHERE id = OLD.user_id AND status <> 'pending') THEN
    RAISE EXCEPTION 'player protection records are kept';
  END IF;
  RETURN OLD;
END;
$$ LANGUAGE plpgsql;
