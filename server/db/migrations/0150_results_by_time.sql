-- /results reads the markets settled in the last 7 days, newest first.
CREATE INDEX market_results_settled ON market_results (settled_at DESC, market_id DESC);
