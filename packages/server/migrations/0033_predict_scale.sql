-- Prediction feed at volume (millions of trades): what the feed's reads need
-- so that none of them grows with the whole projection.

-- Each trader's sums, kept by the prediction projection in the transaction
-- that appends the trade (a state table of the indexer: a reorg restores
-- it from the undo log, a reset deletes it with the scope). GET /points and
-- GET /points/{address} read it instead of summing predict_trades.
-- `trades` counts buys, sells and redemptions; `points` is the points rule
-- (predictPointsOf): floor((buy + sell) / 10^15) + floor(redeemed / 10^15).
CREATE TABLE predict_traders (
  scope          text    NOT NULL,
  chain_id       integer NOT NULL,
  trader         text    NOT NULL,
  buy_weth       numeric NOT NULL DEFAULT 0,
  sell_weth      numeric NOT NULL DEFAULT 0,
  redeemed_weth  numeric NOT NULL DEFAULT 0,
  trades         integer NOT NULL DEFAULT 0,
  points         numeric NOT NULL DEFAULT 0,
  PRIMARY KEY (chain_id, trader)
);

INSERT INTO predict_traders (scope, chain_id, trader, buy_weth, sell_weth, redeemed_weth, trades, points)
SELECT scope, chain_id, trader, buy, sell, redeemed, n,
  div(buy + sell, 1000000000000000) + div(redeemed, 1000000000000000)
FROM (
  SELECT scope, chain_id, trader,
    coalesce(sum(weth) FILTER (WHERE kind = 'buy'), 0) AS buy,
    coalesce(sum(weth) FILTER (WHERE kind = 'sell'), 0) AS sell,
    coalesce(sum(weth) FILTER (WHERE kind = 'redeem'), 0) AS redeemed,
    count(*)::int AS n
  FROM predict_trades GROUP BY scope, chain_id, trader
) t;

-- The leaderboard: most points first, ties by address, straight from the index.
CREATE INDEX predict_traders_points ON predict_traders (chain_id, points DESC, trader);

-- A market's trades by ordinal (GET /legacy/markets/{id}/trades): each
-- trade row carries its 1-based place among its market's trade rows (buys,
-- sells, redemptions) in the order the projection applied them, which is
-- chain order, and the market keeps the newest ordinal. A page at any depth is
-- then a range of ordinals read from the index, never an offset walked over
-- the market's earlier trades. Rollbacks delete trades above the fork and
-- restore the market's ordinal from the undo log, so ordinals stay 1..n.
ALTER TABLE predict_trades ADD COLUMN market_seq integer;
UPDATE predict_trades t SET market_seq = o.seq
FROM (
  SELECT chain_id, block_number, log_index,
    row_number() OVER (PARTITION BY chain_id, market ORDER BY block_number, log_index)::int AS seq
  FROM predict_trades
) o
WHERE o.chain_id = t.chain_id AND o.block_number = t.block_number AND o.log_index = t.log_index;
ALTER TABLE predict_trades ALTER COLUMN market_seq SET NOT NULL;

ALTER TABLE predict_markets ADD COLUMN trade_seq integer NOT NULL DEFAULT 0;
UPDATE predict_markets m SET trade_seq = c.n
FROM (SELECT chain_id, market, count(*)::int AS n FROM predict_trades GROUP BY chain_id, market) c
WHERE c.chain_id = m.chain_id AND c.market = m.address;

DROP INDEX predict_trades_market;
CREATE UNIQUE INDEX predict_trades_market ON predict_trades (chain_id, market, market_seq);

-- Points no longer sum a trader's trades; nothing reads trades by trader, and
-- every index costs each appended trade.
DROP INDEX predict_trades_trader;
