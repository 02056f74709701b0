-- idempotency_keys.status (0 while claimed, 200 once answered) is written but never read: a record's response
-- says it all (JSON null while the write that claimed it runs). The key's record stops writing it, and it may be
-- null. The column stays for the release before this one, which still sets it while a rolling restart runs both
-- (docs/deploy.md): a migration after this release drops it.
CREATE OR REPLACE FUNCTION idempotency_record(p_owner text, p_key text, p_hash text, p_response jsonb,
                                              OUT claimed boolean, OUT stored_hash text, OUT stored_response jsonb) AS $$
BEGIN
  INSERT INTO idempotency_keys (user_id, key, request_hash, response)
  VALUES (p_owner, p_key, p_hash, coalesce(p_response, 'null'::jsonb))
  ON CONFLICT (user_id, key) DO NOTHING;
  IF FOUND THEN
    claimed := true;
    RETURN;
  END IF;
  claimed := false;
  SELECT k.request_hash, k.response INTO stored_hash, stored_response
    FROM idempotency_keys k WHERE k.user_id = p_owner AND k.key = p_key;
END;
$$ LANGUAGE plpgsql VOLATILE;

ALTER TABLE idempotency_keys ALTER COLUMN status DROP NOT NULL;
