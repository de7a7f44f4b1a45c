-- Each log the indexer applies is recorded once. A log its domain table
-- records by chain position (a claim in market_claims, a trade in
-- predict_trades) is no longer written to chain_events as well: a backfill of
-- claims writes one row per log instead of two. chain_events keeps every other
-- applied log. Rows an earlier build wrote twice are removed here.

DELETE FROM chain_events e
  USING market_claims c
  WHERE e.scope = c.scope AND e.block_number = c.block_number AND e.log_index = c.log_index;

DELETE FROM chain_events e
  USING predict_trades t
  WHERE e.scope = t.scope AND e.block_number = t.block_number AND e.log_index = t.log_index;

COMMENT ON TABLE chain_events IS
  'Every log a scope applied that no domain table records (claims: market_claims; trades: predict_trades).';
