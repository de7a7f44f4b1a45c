-- Prediction feed V9 runtime (issue 15): operator switches, first-party keys
-- and the time of the indexed head block (the feed's freshness).

-- The feed's operator switches, one row per chain. No row: the defaults
-- (enabled and public on a deployment that follows the prediction chain).
CREATE TABLE predict_runtime (
  chain_id        integer     PRIMARY KEY,
  enabled         boolean     NOT NULL,
  public_enabled  boolean     NOT NULL,
  updated_at      timestamptz NOT NULL
);

-- Keys the operator marked first-party: they use the feed while `public_enabled` is false.
ALTER TABLE api_keys ADD COLUMN first_party boolean NOT NULL DEFAULT false;

-- The time of block next_block - 1 (the block `block_hash` names); null until
-- the head moves past a block again (a new head, a rewind, a restart).
ALTER TABLE indexer_heads ADD COLUMN block_time timestamptz;
