-- The time of a scope's last indexed block (next_block - 1), beside its hash:
-- the prediction feed names the block its answers reflect (number, hash, time)
-- and must read all three from the head row, in the answer's snapshot. NULL
-- until the head next advances (after a reset, a rewind, or on old rows).
ALTER TABLE indexer_heads ADD COLUMN block_time timestamptz;
