-- The board aggregates the claims of a window of block times (GET /market/board/*):
-- without this index every board read scans all of the market's claims.
CREATE INDEX market_claims_time ON market_claims (chain_id, block_time);
