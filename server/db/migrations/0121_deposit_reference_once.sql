-- A payment reference (UTR) proves one payment: it may be on one pending or approved deposit only (a rejected
-- deposit frees it). Deposits filed before this rule whose reference an earlier pending or approved deposit
-- already had keep it, marked `reference_reused`, and each such reference becomes an integrity signal.
ALTER TABLE deposit_requests ADD COLUMN reference_reused boolean NOT NULL DEFAULT false;

UPDATE deposit_requests d SET reference_reused = true
 WHERE d.txn_ref IS NOT NULL AND d.status IN ('pending', 'approved')
   AND EXISTS (
     SELECT 1 FROM deposit_requests e
      WHERE e.txn_ref = d.txn_ref AND e.status IN ('pending', 'approved') AND (e.created_at, e.id) < (d.created_at, d.id)
   );

-- The key is Signals' signalKey: kind|subject|player ids sorted (byte order, as JavaScript sorts them).
WITH reused AS (
  SELECT txn_ref, array_agg(id ORDER BY created_at, id) AS deposit_ids,
         string_agg(DISTINCT user_id COLLATE "C", ',' ORDER BY user_id COLLATE "C") AS players
    FROM deposit_requests
   WHERE txn_ref IS NOT NULL AND status IN ('pending', 'approved')
   GROUP BY txn_ref HAVING count(*) > 1
),
signals AS (
  INSERT INTO integrity_signals (kind, subject, detail, context, key)
  SELECT 'duplicate_utr', txn_ref,
         'Reference ' || txn_ref || ' is on ' || cardinality(deposit_ids) || ' pending or approved deposits, filed before references were checked',
         jsonb_build_object('depositIds', to_jsonb(deposit_ids)),
         'duplicate_utr|' || txn_ref || '|' || players
    FROM reused
  ON CONFLICT (key) DO NOTHING
  RETURNING id, subject
)
INSERT INTO integrity_signal_players (signal_id, user_id)
SELECT DISTINCT s.id, d.user_id
  FROM signals s JOIN deposit_requests d ON d.txn_ref = s.subject AND d.status IN ('pending', 'approved');

CREATE UNIQUE INDEX deposit_requests_reference_once ON deposit_requests (txn_ref)
 WHERE txn_ref IS NOT NULL AND status IN ('pending', 'approved') AND NOT reference_reused;
