-- The live-compatible pack reads (classic/packs): each box view cuts its page
-- from an index carrying its filter and order columns, reading only keys.

-- `/owner/{address}?contractAddress=`: one owner's packs of one game, latest update first (either direction).
CREATE INDEX classic_packs_owner_game_updated
  ON classic_packs (chain_id, owner, contract_address, updated_at, token_id) INCLUDE (status, rarity);

-- `/owner/{address}?rarityGreaterThan=` across games: the owner's walk by latest update tests the
-- rarity inside the index, without visiting rows.
DROP INDEX classic_packs_owner_updated;
CREATE INDEX classic_packs_owner_updated
  ON classic_packs (chain_id, owner, updated_at, contract_address, token_id) INCLUDE (status, rarity);

-- `/recent?rarityGreaterThan=` of one game and of every game: one scan per (rarity, status) above the
-- bound, each reading at most the page's depth, merged by latest update; a rare rarity is never found
-- by walking the game's common packs.
CREATE INDEX classic_packs_game_rarity_updated
  ON classic_packs (chain_id, contract_address, rarity, status, updated_at DESC, token_id DESC);
CREATE INDEX classic_packs_chain_rarity_updated
  ON classic_packs (chain_id, rarity, status, updated_at DESC, contract_address DESC, token_id DESC);
