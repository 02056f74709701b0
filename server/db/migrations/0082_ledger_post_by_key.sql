-- server/ledger (Ledger.post): 0080's ledger_post found its accounts by a join
-- of the legs (a JSON array, which the planner guesses at 100 rows) with
-- ledger_accounts, so it read the whole table twice per posting, once to lock
-- and once to update: on a busy exchange, a table of updated balances full of
-- dead row versions (docs/operations.md, "Load: bets per second"). It now
-- moves one account at a time by its primary key, in id order, which is the
-- order every posting locks in (no deadlocks between postings). The rest is
-- unchanged: the CHECK ledger_accounts_no_overdraft refuses an overdraft,
-- each entry records the balance after it, the deferred trigger checks the
-- sum at commit.
CREATE OR REPLACE FUNCTION ledger_post(p_kind text, p_user_id text, p_reference text, p_description text, p_legs jsonb) RETURNS text AS $$
DECLARE
  tx_id text;
  leg record;
  previous text;
  after bigint;
BEGIN
  IF jsonb_array_length(p_legs) < 2 THEN
    RAISE EXCEPTION 'posting % has fewer than two accounts', p_kind;
  END IF;
  INSERT INTO ledger_transactions (kind, user_id, reference, description)
  VALUES (p_kind, p_user_id, p_reference, p_description) RETURNING id INTO tx_id;
  FOR leg IN
    SELECT l ->> 'account' AS account_id, (l ->> 'amount')::bigint AS amount
      FROM jsonb_array_elements(p_legs) AS l ORDER BY 1
  LOOP
    IF leg.account_id IS NOT DISTINCT FROM previous THEN
      RAISE EXCEPTION 'posting % moves account % twice', p_kind, leg.account_id;
    END IF;
    previous := leg.account_id;
    UPDATE ledger_accounts SET balance = balance + leg.amount WHERE id = leg.account_id RETURNING balance INTO after;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'posting % names no account %', p_kind, leg.account_id;
    END IF;
    INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after) VALUES (tx_id, leg.account_id, leg.amount, after);
  END LOOP;
  RETURN tx_id;
END;
$$ LANGUAGE plpgsql VOLATILE;
