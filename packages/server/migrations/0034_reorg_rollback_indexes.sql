-- A reorg rolls a scope back with `DELETE … WHERE scope = $1 AND block_number > $2` on every table
-- it appended to (indexer/reorg.ts). predict_trades (keyed by chain_id, block_number, log_index)
-- and indexer_contracts (keyed by scope, address) had no index that starts with the scope and the
-- block, so every rollback, however shallow, read each whole: millions of trades and every contract
-- a factory ever created. market_claims and chain_events have theirs.
CREATE INDEX predict_trades_scope ON predict_trades (scope, block_number);
CREATE INDEX indexer_contracts_block ON indexer_contracts (scope, block_number);
