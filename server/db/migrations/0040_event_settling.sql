-- An event being settled. The feed claims a finished match as 'settling' (one server wins the conditional
-- update; bets are refused and the catalogue no longer lists it from then on), settles each of its markets,
-- and marks it 'finished' only once none is left: a finished event never has a market to settle.
ALTER TABLE events DROP CONSTRAINT events_status_check;
ALTER TABLE events ADD CONSTRAINT events_status_check CHECK (status IN ('scheduled', 'live', 'settling', 'finished', 'cancelled'));

-- Finished events that a server stopped with markets still to settle: the feed takes them up again.
UPDATE events e SET status = 'settling'
 WHERE e.status = 'finished'
   AND EXISTS (SELECT 1 FROM markets m WHERE m.event_id = e.id AND m.status IN ('OPEN', 'SUSPENDED', 'CLOSED'));

CREATE INDEX events_settling ON events (starts_at) WHERE status = 'settling';
