-- The classic projection built from the live Classic events (BoosterDropsMinted, BoosterDropOpened,
-- RarityAssigned per open batch, BoosterDropSold, TokensPurchased, TokensSold, MarketGraduated,
-- DropCreated) and our extension DropConfigured.

-- A pack's ETH price is no longer a parameter: `price_per_pack` is the ETH one pack costs now, the
-- drop's `getMintPrice(1)`: the price of `tokens_per_mint` tokens on the curve while on the curve, in
-- the pool after graduation (`pool_eth` and `pool_tokens` are the pool's reserves now: seeded by
-- `MarketGraduated`, moved by each pool trade). A drop whose curve the projection does not know (no
-- `DropConfigured`) keeps its last ETH mint's price per pack. `offers` and a burned pack's
-- `reward_amount` are in the drop's token units, as the live offers are.
ALTER TABLE classic_games
  ADD COLUMN tokens_per_mint  numeric NOT NULL DEFAULT 0,
  -- The ETH the drop paid the token in the transaction `mint_payment_tx` (`TokensPurchased` with the
  -- drop as buyer, which precedes the mint's `BoosterDropsMinted` in the same transaction); the mint
  -- consumes it, so a pack's `acquired_price` is what its mint paid.
  ADD COLUMN mint_payment_tx  text,
  ADD COLUMN mint_payment_wei numeric;

-- An open batch's packs: `RarityAssigned(batchId, randomNumber)` names only the batch, so the
-- projection keeps which packs `BoosterDropOpened` put in it.
CREATE TABLE classic_open_batches (
  scope          text NOT NULL,
  chain_id       integer NOT NULL,
  drop_address   text NOT NULL,
  batch_id       numeric NOT NULL,
  -- Token ids as decimal strings, in the order of the opening.
  token_ids      jsonb NOT NULL,
  -- The batch's random number (bytes32, 0x-hex) once `RarityAssigned` arrived.
  random_number  text,
  opened_tx      text NOT NULL,
  updated_block  bigint NOT NULL,
  updated_at     timestamptz NOT NULL,
  PRIMARY KEY (chain_id, drop_address, batch_id)
);
CREATE INDEX classic_open_batches_scope ON classic_open_batches (scope);

-- The price chart and a game's last 24 hours read its packs' mints now (`classic_packs` by
-- `mint_time`, each pack carrying its share of its mint's ETH), not the drop's old trade events: the
-- partial index of those events holds nothing the live events write.
DROP INDEX chain_events_trades;

-- A collector's opened packs: a pack is opened before its rarity arrives, so the opened ones it holds
-- are those `opened` (randomness pending) and those `rarity_assigned` since. The leaderboards rank by
-- them after the packs held.
ALTER TABLE classic_collectors ADD COLUMN held_opened bigint GENERATED ALWAYS AS (assigned + opened) STORED;
ALTER TABLE classic_game_collectors ADD COLUMN held_opened bigint GENERATED ALWAYS AS (assigned + opened) STORED;
DROP INDEX classic_collectors_rank;
DROP INDEX classic_game_collectors_rank;
CREATE INDEX classic_collectors_rank ON classic_collectors (chain_id, held DESC, held_opened DESC, spent DESC, owner);
CREATE INDEX classic_game_collectors_rank
  ON classic_game_collectors (chain_id, contract_address, held DESC, held_opened DESC, spent DESC, owner);
