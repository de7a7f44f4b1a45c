-- The trades of a classic game by time: its drop's mints (`Minted`, the pack price paid) and its
-- ticket token's curve trades (`Purchase`, `Sale`), for `GET /classic/price-chart/{address}` and
-- the last 24 hours of `GET /classic/collection/{address}/stats`. chain_events_address orders a
-- contract's logs by block, not time, and carries every other log of the drop (transfers, rarity
-- assignments, openings); this partial index holds only the trades, so a window of a game's
-- history reads exactly the trades in it (one GROUP BY over an index range, whatever the game's
-- size), and the last trade before a window is one backward step.
CREATE INDEX chain_events_trades ON chain_events (address, block_time, block_number, log_index)
  WHERE event IN ('Minted', 'Purchase', 'Sale');
