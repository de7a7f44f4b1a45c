-- Prediction feed V9 (issue 15): what the feed's reads need that the
-- projection did not keep.

-- The market's own flags, as the contract holds them: `paused` is independent
-- of resolution (an operator may pause a resolved market), so `status` is
-- derived (resolved, else paused, else active) and never flipped back by a
-- pause after resolution. `fees_accrued` is the contract's `feesAccrued`
-- (zeroed by `LiquidityCollected`); `collected_shares` / `collected_fees`
-- are what the creator took at collection. `trade_count` counts buys and sells.
ALTER TABLE predict_markets
  ADD COLUMN paused               boolean NOT NULL DEFAULT false,
  ADD COLUMN fees_accrued         numeric NOT NULL DEFAULT 0,
  ADD COLUMN liquidity_collected  boolean NOT NULL DEFAULT false,
  ADD COLUMN collected_shares     numeric,
  ADD COLUMN collected_fees       numeric,
  ADD COLUMN resolved_block       bigint,
  ADD COLUMN resolved_at          timestamptz,
  ADD COLUMN trade_count          integer NOT NULL DEFAULT 0;

-- Fill what the existing rows allow: pauses, fees and counts from the trades.
UPDATE predict_markets SET paused = true WHERE status = 'paused';
UPDATE predict_markets m SET
  fees_accrued = coalesce(t.fees, 0),
  trade_count = coalesce(t.n, 0)
FROM (
  SELECT chain_id, market, sum(fee) AS fees, count(*)::int AS n
  FROM predict_trades WHERE kind IN ('buy', 'sell')
  GROUP BY chain_id, market
) t
WHERE t.chain_id = m.chain_id AND t.market = m.address;
-- A resolved market whose pools are empty had its liquidity collected: its fees went with it.
UPDATE predict_markets SET liquidity_collected = true, fees_accrued = 0
WHERE status = 'resolved' AND yes_pool = 0 AND no_pool = 0;

-- Portfolio and points read by owner.
CREATE INDEX predict_positions_owner ON predict_positions (chain_id, owner, market);
CREATE INDEX predict_trades_trader ON predict_trades (chain_id, trader, block_number DESC, log_index DESC);
