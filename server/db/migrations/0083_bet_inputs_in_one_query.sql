-- server/betting: bet_inputs (0081) in one query. It joined two PL/pgSQL
-- functions (bet_position, protection_rules) laterally, and a bet calls it
-- twice: each call of each started an executor for every query inside it and
-- kept its rows in a tuplestore (in a profile, PL/pgSQL was about half of
-- PostgreSQL's time per bet: docs/operations.md, "Load: bets per second"),
-- four queries a call where one will do (48 -> 34 us a call). Their queries are now
-- SQL functions the planner inlines into the caller's query, so bet_inputs
-- reads everything in one query with one snapshot. That snapshot is still
-- fresh: bet_inputs stays a VOLATILE PL/pgSQL function, whose every query takes
-- a new one, so called after the bet's locks it reads what the locks' previous
-- holder committed. An inlined function shares its caller's snapshot (it must
-- be STABLE to be inlined), so protection_rules keeps its own fresh one by
-- staying the PL/pgSQL function it was, now over the same query.

-- What protection_rules reads, as one query (inlined wherever it is called).
CREATE FUNCTION protection_rules_query(p_user text, p_kind text, p_switches_key text)
RETURNS TABLE (region text, age_confirmed_at timestamptz, reality_check_minutes smallint,
               time_out_started_at timestamptz, time_out_until timestamptz, excluded_at timestamptz,
               excluded_until timestamptz, return_requested_at timestamptz, switches jsonb, in_force json) AS $$
  SELECT p.region, p.age_confirmed_at, p.reality_check_minutes,
         p.time_out_started_at, p.time_out_until, p.excluded_at, p.excluded_until, p.return_requested_at,
         (SELECT s.value FROM app_settings s WHERE s.key = p_switches_key),
         (SELECT json_agg(json_build_object('period', l.period, 'amount', l.amount) ORDER BY l.period)
            FROM protection_limits l WHERE l.user_id = p_user AND l.kind = p_kind AND l.amount IS NOT NULL)
    FROM users u LEFT JOIN player_protection p ON p.user_id = u.id
   WHERE u.id = p_user
$$ LANGUAGE sql STABLE;

CREATE OR REPLACE FUNCTION protection_rules(p_user text, p_kind text, p_switches_key text)
RETURNS TABLE (region text, age_confirmed_at timestamptz, reality_check_minutes smallint,
               time_out_started_at timestamptz, time_out_until timestamptz, excluded_at timestamptz,
               excluded_until timestamptz, return_requested_at timestamptz, switches jsonb, in_force json) AS $$
BEGIN
  RETURN QUERY SELECT * FROM protection_rules_query(p_user, p_kind, p_switches_key);
END;
$$ LANGUAGE plpgsql VOLATILE;

-- What bet_position reads, as one query (one row, nulls when the player holds
-- nothing on the market or there is no market).
CREATE FUNCTION bet_position_query(p_user text, p_market text)
RETURNS TABLE (open_bets json, held_wallet smallint, held_exposure bigint) AS $$
  SELECT (SELECT json_agg(json_build_object('selectionId', b.selection_id, 'side', b.side, 'odds', b.odds, 'size', b.size, 'stake', b.stake) ORDER BY b.id)
            FROM bets b WHERE b.user_id = p_user AND b.market_id = p_market AND b.status = 'open'),
         me.wallet, me.exposure
    FROM (SELECT) AS one
    LEFT JOIN market_exposures me ON me.user_id = p_user AND me.market_id = p_market
$$ LANGUAGE sql STABLE;

CREATE OR REPLACE FUNCTION bet_position(p_user text, p_market text, OUT open_bets json, OUT held_wallet smallint, OUT held_exposure bigint) AS $$
BEGIN
  SELECT q.open_bets, q.held_wallet, q.held_exposure INTO open_bets, held_wallet, held_exposure
    FROM bet_position_query(p_user, p_market) AS q;
END;
$$ LANGUAGE plpgsql VOLATILE;

-- The same inputs and fingerprint as 0081's, so a read by a server of the
-- previous release and a write by this one (or the other way round) agree.
CREATE OR REPLACE FUNCTION bet_inputs(p_user text, p_market text, p_switches_key text,
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
    CROSS JOIN LATERAL bet_position_query(u.id, m.id) AS pos
    CROSS JOIN LATERAL protection_rules_query(u.id, 'loss', p_switches_key) AS rules
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
