-- A bet in one statement (docs/operations.md, "Load: bets per second"). The
-- bet is decided from what it reads before any lock (bet_inputs), then written
-- by one statement that takes the locks, reads bet_inputs again and refuses to
-- write (serialization_failure, so the server decides again) unless it is what
-- the decision was made on. Functions for the same reason as in 0080: each
-- query inside a VOLATILE PL/pgSQL function takes a fresh snapshot, so one
-- called after a row lock reads what the lock's previous holder committed.

-- The lists a bet's fingerprint covers come in a fixed order (0080 left it to
-- the plan), so the same rows always give the same fingerprint.
CREATE OR REPLACE FUNCTION protection_rules(p_user text, p_kind text, p_switches_key text)
RETURNS TABLE (region text, age_confirmed_at timestamptz, reality_check_minutes smallint,
               time_out_started_at timestamptz, time_out_until timestamptz, excluded_at timestamptz,
               excluded_until timestamptz, return_requested_at timestamptz, switches jsonb, in_force json) AS $$
BEGIN
  RETURN QUERY
  SELECT p.region, p.age_confirmed_at, p.reality_check_minutes,
         p.time_out_started_at, p.time_out_until, p.excluded_at, p.excluded_until, p.return_requested_at,
         (SELECT s.value FROM app_settings s WHERE s.key = p_switches_key),
         (SELECT json_agg(json_build_object('period', l.period, 'amount', l.amount) ORDER BY l.period)
            FROM protection_limits l WHERE l.user_id = p_user AND l.kind = p_kind AND l.amount IS NOT NULL)
    FROM users u LEFT JOIN player_protection p ON p.user_id = u.id
   WHERE u.id = p_user;
END;
$$ LANGUAGE plpgsql VOLATILE;

CREATE OR REPLACE FUNCTION bet_position(p_user text, p_market text, OUT open_bets json, OUT held_wallet smallint, OUT held_exposure bigint) AS $$
BEGIN
  SELECT json_agg(json_build_object('selectionId', b.selection_id, 'side', b.side, 'odds', b.odds, 'size', b.size, 'stake', b.stake) ORDER BY b.id)
    INTO open_bets
    FROM bets b WHERE b.user_id = p_user AND b.market_id = p_market AND b.status = 'open';
  SELECT me.wallet, me.exposure INTO held_wallet, held_exposure
    FROM market_exposures me WHERE me.user_id = p_user AND me.market_id = p_market;
END;
$$ LANGUAGE plpgsql VOLATILE;

-- server/protection: what a loss limit counts, from `p_month` on (net loss by
-- window, when the oldest loss of each window came, what open bets hold).
CREATE FUNCTION loss_usage(p_user text, p_day timestamptz, p_week timestamptz, p_month timestamptz,
                           OUT day_used bigint, OUT week_used bigint, OUT month_used bigint,
                           OUT day_oldest timestamptz, OUT week_oldest timestamptz, OUT month_oldest timestamptz,
                           OUT open bigint) AS $$
BEGIN
  SELECT coalesce(-sum(r.amount) FILTER (WHERE r.at > p_day), 0)::bigint,
         coalesce(-sum(r.amount) FILTER (WHERE r.at > p_week), 0)::bigint,
         coalesce(-sum(r.amount), 0)::bigint,
         min(r.at) FILTER (WHERE r.at > p_day AND r.amount < 0),
         min(r.at) FILTER (WHERE r.at > p_week AND r.amount < 0),
         min(r.at) FILTER (WHERE r.amount < 0)
    INTO day_used, week_used, month_used, day_oldest, week_oldest, month_oldest
    FROM protection_results r
   WHERE r.user_id = p_user AND r.at > p_month;
  SELECT coalesce(sum(a.balance), 0)::bigint INTO open
    FROM ledger_accounts a WHERE a.user_id = p_user AND a.kind IN ('exposure', 'bonus_exposure');
END;
$$ LANGUAGE plpgsql VOLATILE;

-- server/betting: everything a bet is decided on about the player and the
-- market: their statuses (the market's null when there is no such market),
-- the player's position on the market, their loss rules and, when a loss
-- limit is in force, what it counts; and a fingerprint of all of it. No row
-- when there is no such player.
CREATE FUNCTION bet_inputs(p_user text, p_market text, p_switches_key text,
                           p_day timestamptz, p_week timestamptz, p_month timestamptz)
RETURNS TABLE (wallet smallint, user_status text, market_status text, event_status text,
               open_bets json, held_wallet smallint, held_exposure bigint,
               region text, age_confirmed_at timestamptz, reality_check_minutes smallint,
               time_out_started_at timestamptz, time_out_until timestamptz, excluded_at timestamptz,
               excluded_until timestamptz, return_requested_at timestamptz, switches jsonb, in_force json,
               day_used bigint, week_used bigint, month_used bigint,
               day_oldest timestamptz, week_oldest timestamptz, month_oldest timestamptz, open bigint,
               fingerprint text) AS $$
BEGIN
  SELECT u.wallet, u.status, m.status, e.status, pos.open_bets, pos.held_wallet, pos.held_exposure,
         rules.region, rules.age_confirmed_at, rules.reality_check_minutes, rules.time_out_started_at,
         rules.time_out_until, rules.excluded_at, rules.excluded_until, rules.return_requested_at,
         rules.switches, rules.in_force
    INTO wallet, user_status, market_status, event_status, open_bets, held_wallet, held_exposure,
         region, age_confirmed_at, reality_check_minutes, time_out_started_at,
         time_out_until, excluded_at, excluded_until, return_requested_at,
         switches, in_force
    FROM users u
    LEFT JOIN (markets m JOIN events e ON e.id = m.event_id) ON m.id = p_market
    CROSS JOIN LATERAL bet_position(u.id, m.id) AS pos
    CROSS JOIN LATERAL protection_rules(u.id, 'loss', p_switches_key) AS rules
   WHERE u.id = p_user;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  -- Counted only with a loss limit in force (the counts are then part of what the bet is decided on).
  IF in_force IS NOT NULL THEN
    SELECT c.day_used, c.week_used, c.month_used, c.day_oldest, c.week_oldest, c.month_oldest, c.open
      INTO day_used, week_used, month_used, day_oldest, week_oldest, month_oldest, open
      FROM loss_usage(p_user, p_day, p_week, p_month) AS c;
  END IF;
  fingerprint := md5(row(wallet, user_status, market_status, event_status, open_bets, held_wallet, held_exposure,
                         region, age_confirmed_at, reality_check_minutes, time_out_started_at,
                         time_out_until, excluded_at, excluded_until, return_requested_at,
                         switches, in_force,
                         day_used, week_used, month_used, day_oldest, week_oldest, month_oldest, open)::text);
  RETURN NEXT;
END;
$$ LANGUAGE plpgsql VOLATILE;

-- server/betting: refuses the bet's statement (and so everything it wrote)
-- when what it was decided on has changed; the server reads and decides again.
CREATE FUNCTION bet_inputs_unchanged(p_same boolean) RETURNS boolean AS $$
BEGIN
  IF NOT p_same THEN
    RAISE EXCEPTION 'bet inputs changed since they were read' USING ERRCODE = 'serialization_failure';
  END IF;
  RETURN true;
END;
$$ LANGUAGE plpgsql VOLATILE;

-- server/ledger (Idempotency): claims the key for a write, or returns what the
-- earlier request with that key stored. With a response (`runCarried`, a write
-- of one statement that rolls the record back if it fails) the record is
-- written finished; without one (`run`) it is claimed, and the write's last
-- statement stores the response. A concurrent request with the same key waits
-- on the insert until the first commits or rolls back.
CREATE FUNCTION idempotency_record(p_owner text, p_key text, p_hash text, p_response jsonb,
                                   OUT claimed boolean, OUT stored_hash text, OUT stored_response jsonb) AS $$
BEGIN
  INSERT INTO idempotency_keys (user_id, key, request_hash, status, response)
  VALUES (p_owner, p_key, p_hash, CASE WHEN p_response IS NULL THEN 0 ELSE 200 END, coalesce(p_response, 'null'::jsonb))
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

-- 0080's claim, kept for servers of the previous release during a rolling
-- restart: the same function without a response.
CREATE OR REPLACE FUNCTION idempotency_claim(p_owner text, p_key text, p_hash text,
                                             OUT claimed boolean, OUT stored_hash text, OUT stored_response jsonb) AS $$
  SELECT r.claimed, r.stored_hash, r.stored_response FROM idempotency_record(p_owner, p_key, p_hash, NULL) AS r;
$$ LANGUAGE sql VOLATILE;
