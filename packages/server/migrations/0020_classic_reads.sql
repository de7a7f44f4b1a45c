-- Classic reads (issue 13): what the booster-box reads need that the chain
-- side did not carry, and the offchain records the reads join.

-- From `GameCreated` (the game's parameters, now emitted whole), `ActiveChanged`,
-- `Graduated`, `Opened` and `SoldBack`. Arrays are JSON: `offers` are the
-- sell-back offers in wei (decimal strings) for Common..Mythic, `odds_bps` the
-- rarity odds in basis points for Common..Mythic (they sum to 10000).
ALTER TABLE classic_games
  ADD COLUMN offers          jsonb   NOT NULL DEFAULT '["0","0","0","0","0"]',
  ADD COLUMN odds_bps        jsonb   NOT NULL DEFAULT '[6000,2500,1000,400,100]',
  ADD COLUMN virtual_eth     numeric NOT NULL DEFAULT 0,
  ADD COLUMN virtual_tokens  numeric NOT NULL DEFAULT 0,
  ADD COLUMN graduation_eth  numeric NOT NULL DEFAULT 0,
  ADD COLUMN first_token_id  numeric NOT NULL DEFAULT 1,
  ADD COLUMN is_active       boolean NOT NULL DEFAULT true,
  ADD COLUMN pool_eth        numeric,
  ADD COLUMN pool_tokens     numeric,
  ADD COLUMN packs_opened    numeric NOT NULL DEFAULT 0,
  ADD COLUMN packs_burned    numeric NOT NULL DEFAULT 0,
  -- Wei paid for packs (sum of pricePerPack * amount over `Minted`).
  ADD COLUMN mint_volume     numeric NOT NULL DEFAULT 0,
  -- The default slug (`<nft name, slugified>-<gameId>`); a creator-chosen slug lives in classic_slugs.
  ADD COLUMN slug            text    NOT NULL DEFAULT '';

CREATE INDEX classic_games_created ON classic_games (chain_id, created_block DESC, drop_address);
CREATE INDEX classic_games_slug ON classic_games (chain_id, slug);

CREATE INDEX classic_packs_contract_status ON classic_packs (chain_id, contract_address, status, rarity);
CREATE INDEX classic_packs_minted ON classic_packs (chain_id, mint_time);
-- `/range`'s default order (latest update first, token id breaking ties) read straight from an index.
DROP INDEX classic_packs_updated;
CREATE INDEX classic_packs_updated ON classic_packs (chain_id, contract_address, updated_at DESC, token_id DESC);

-- `/recent` walks activity by time: (block_time, block_number, log_index) is
-- the order, and the cursor's objectId is the 24 hex digits of block number
-- (16) and log index (8).
CREATE INDEX chain_events_time ON chain_events (chain_id, block_time DESC, block_number DESC, log_index DESC);

-- Offchain metadata of a game, in revisions (classic-api.md section 9). A
-- read at time T uses the revision with effective_from <= T < effective_until
-- (open-ended when null) of the highest version. Issue 14's creator workflow
-- writes them; until a game has one, reads use the default metadata derived
-- from the chain (metadataSource "default").
CREATE TABLE classic_metadata (
  chain_id          integer     NOT NULL,
  contract_address  text        NOT NULL,
  version           integer     NOT NULL CHECK (version >= 1),
  effective_from    timestamptz NOT NULL,
  effective_until   timestamptz,
  source            text        NOT NULL,
  -- Game fields: description, imageUrl, websiteUrl, featuredImageUrl, packImage, bgColor, links, isNSFW, disableFoil, disableWear.
  game              jsonb       NOT NULL,
  -- Card entries: name, description, imageUrl, unopenedImageUrl, firstEditionImageUrl, externalLink, rarity (1..5), startId, endId, traits, bgColor.
  cards             jsonb       NOT NULL,
  created_at        timestamptz NOT NULL,
  PRIMARY KEY (chain_id, contract_address, version),
  CHECK (effective_until IS NULL OR effective_until > effective_from)
);

-- Creator-chosen slugs; a game without one is found by its default slug.
CREATE TABLE classic_slugs (
  chain_id          integer NOT NULL,
  slug              text    NOT NULL,
  contract_address  text    NOT NULL,
  PRIMARY KEY (chain_id, slug),
  UNIQUE (chain_id, contract_address)
);

-- Operator flags of a game (admin listener).
CREATE TABLE classic_game_flags (
  chain_id            integer     NOT NULL,
  contract_address    text        NOT NULL,
  is_featured         boolean     NOT NULL DEFAULT false,
  is_verified         boolean     NOT NULL DEFAULT false,
  is_verified_artist  boolean     NOT NULL DEFAULT false,
  is_marketfit        boolean     NOT NULL DEFAULT false,
  updated_at          timestamptz NOT NULL,
  PRIMARY KEY (chain_id, contract_address)
);

-- Operator switches of the classic surface (`unboxing_disallowed`).
CREATE TABLE classic_settings (
  name        text        PRIMARY KEY,
  value       jsonb       NOT NULL,
  updated_at  timestamptz NOT NULL
);
