-- Every player has all their accounts from the moment they exist, and the
-- operator's accounts exist from the start: posting money never has to
-- create an account inside someone else's transaction.

INSERT INTO ledger_accounts (user_id, kind, floor)
SELECT u.id, k.kind, CASE WHEN k.kind = 'main' AND u.role = 104 THEN -u.credit_reference ELSE 0 END
  FROM users u
 CROSS JOIN (VALUES ('main'), ('bonus'), ('exposure'), ('bonus_exposure'), ('withdrawal_hold'), ('ref_bonus')) AS k (kind)
ON CONFLICT (user_id, kind) DO NOTHING;

INSERT INTO ledger_accounts (user_id, kind, floor)
SELECT NULL, k.kind, NULL
  FROM (VALUES ('house'), ('deposits'), ('withdrawals'), ('bonus_expense'), ('referral_expense'), ('casino')) AS k (kind)
ON CONFLICT (user_id, kind) DO NOTHING;
