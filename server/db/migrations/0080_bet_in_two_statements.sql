-- A bet in two statements (docs/operations.md, "Load: bets per second"): the
-- pieces each service owns, as functions a caller's statement can call. They
-- are PL/pgSQL and VOLATILE on purpose: each query inside gets a fresh
-- snapshot, so one called after a row lock in the same statement reads what
-- the previous holder of that lock committed (a plain subquery would read the
-- statement's older snapshot).

-- server/ledger (Ledger.post): one balanced movement. Locks the accounts in id
-- order (no deadlocks between postings), writes the transaction, moves the
-- balances (the CHECK ledger_accounts_no_overdraft refuses an overdraft) and
-- records each entry with the balance after it. `legs` is a JSON array of
-- {"account": id, "amount": paise}, one leg per account; the deferred trigger
-- checks the sum at commit.
CREATE FUNCTION ledger_post(p_kind text, p_user_id text, p_reference text, p_description text, p_legs jsonb) RETURNS text AS $$
DECLARE
  tx_id text;
  moved integer;
BEGIN
  IF jsonb_array_length(p_legs) < 2 THEN
    RAISE EXCEPTION 'posting % has fewer than two accounts', p_kind;
  END IF;
  PERFORM 1 FROM ledger_accounts a
    WHERE a.id IN (SELECT leg ->> 'account' FROM jsonb_array_elements(p_legs) AS leg)
    ORDER BY a.id FOR UPDATE;
  INSERT INTO ledger_transactions (kind, user_id, reference, description)
  VALUES (p_kind, p_user_id, p_reference, p_description) RETURNING id INTO tx_id;
  WITH legs (account_id, amount) AS (
         SELECT leg ->> 'account', (leg ->> 'amount')::bigint FROM jsonb_array_elements(p_legs) AS leg
       ),
       changed AS (
         UPDATE ledger_accounts a SET balance = a.balance + legs.amount
           FROM legs WHERE a.id = legs.account_id
         RETURNING a.id, a.balance, legs.amount
       )
  INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after)
  SELECT tx_id, changed.id, changed.amount, changed.balance FROM changed ORDER BY changed.id;
  GET DIAGNOSTICS moved = ROW_COUNT;
  IF moved <> jsonb_array_length(p_legs) THEN
    RAISE EXCEPTION 'posting % moved % of % accounts', p_kind, moved, jsonb_array_length(p_legs);
  END IF;
  RETURN tx_id;
END;
$$ LANGUAGE plpgsql VOLATILE;

-- server/ledger (Idempotency): claims the key for a write, or returns what the
-- earlier request with that key stored. A concurrent request with the same key
-- waits on the insert until the first commits or rolls back.
CREATE FUNCTION idempotency_claim(p_owner text, p_key text, p_hash text,
                                  OUT claimed boolean, OUT stored_hash text, OUT stored_response jsonb) AS $$
BEGIN
  INSERT INTO idempotency_keys (user_id, key, request_hash, status, response)
  VALUES (p_owner, p_key, p_hash, 0, 'null'::jsonb)
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

-- server/protection (loadRules): the player's protection record, the
-- operator's switches and the amounts of one kind's limits in force (JSON
-- numbers of paise; none for a NULL kind).
CREATE FUNCTION protection_rules(p_user text, p_kind text, p_switches_key text)
RETURNS TABLE (region text, age_confirmed_at timestamptz, reality_check_minutes smallint,
               time_out_started_at timestamptz, time_out_until timestamptz, excluded_at timestamptz,
               excluded_until timestamptz, return_requested_at timestamptz, switches jsonb, in_force json) AS $$
BEGIN
  RETURN QUERY
  SELECT p.region, p.age_confirmed_at, p.reality_check_minutes,
         p.time_out_started_at, p.time_out_until, p.excluded_at, p.excluded_until, p.return_requested_at,
         (SELECT s.value FROM app_settings s WHERE s.key = p_switches_key),
         (SELECT json_agg(json_build_object('period', l.period, 'amount', l.amount))
            FROM protection_limits l WHERE l.user_id = p_user AND l.kind = p_kind AND l.amount IS NOT NULL)
    FROM users u LEFT JOIN player_protection p ON p.user_id = u.id
   WHERE u.id = p_user;
END;
$$ LANGUAGE plpgsql VOLATILE;

-- server/betting: the player's open bets on the market (JSON numbers) and
-- what the market holds of theirs, read under the bet's lock.
CREATE FUNCTION bet_position(p_user text, p_market text, OUT open_bets json, OUT held_wallet smallint, OUT held_exposure bigint) AS $$
BEGIN
  SELECT json_agg(json_build_object('selectionId', b.selection_id, 'side', b.side, 'odds', b.odds, 'size', b.size, 'stake', b.stake))
    INTO open_bets
    FROM bets b WHERE b.user_id = p_user AND b.market_id = p_market AND b.status = 'open';
  SELECT me.wallet, me.exposure INTO held_wallet, held_exposure
    FROM market_exposures me WHERE me.user_id = p_user AND me.market_id = p_market;
END;
$$ LANGUAGE plpgsql VOLATILE;
