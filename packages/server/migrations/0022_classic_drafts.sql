-- Classic creator drafts (issue 14, creator workflow): a game drafted
-- offchain, its allowlist, and once confirmed the deployment it became.
-- A draft belongs to its creator wallet: the accounts that hold that wallet
-- at request time reach it (classic/README.md, "Creator workflow").
CREATE TABLE classic_drafts (
  -- 24 lowercase hex digits, random.
  id                 text        PRIMARY KEY,
  chain_id           integer     NOT NULL,
  -- The creator wallet (lowercase); it must deploy the game.
  creator            text        NOT NULL,
  -- Client-incremented autosave revision: a save applies only when greater.
  revision           integer     NOT NULL CHECK (revision >= 1),
  -- tokenName, tokenSymbol, nftName, nftSymbol, slug, game, cards, oddsBps.
  content            jsonb       NOT NULL,
  whitelist_enabled  boolean     NOT NULL DEFAULT false,
  -- Allowlist entries {address, userId, username, profileImage}, addresses unique, request order.
  allowlist          jsonb       NOT NULL DEFAULT '[]',
  allowlist_count    integer     NOT NULL DEFAULT 0,
  -- StandardMerkleTree(["address"]) root of the entries; null without entries.
  merkle_root        text,
  finalized_at       timestamptz,
  -- Set by confirm: the deployment transaction and what it created.
  tx_hash            text,
  contract_address   text,
  token_address      text,
  game_id            numeric,
  deployed_root      text,
  confirmed_at       timestamptz,
  -- The metadata revision confirm published; null while the game awaits indexing.
  published_version  integer,
  -- One replica publishes: it claims the draft first (a stale claim, 30 s, may be taken over).
  publish_claimed_at timestamptz,
  created_at         timestamptz NOT NULL,
  updated_at         timestamptz NOT NULL
);

CREATE INDEX classic_drafts_creator ON classic_drafts (creator, updated_at DESC, id);
CREATE UNIQUE INDEX classic_drafts_contract ON classic_drafts (chain_id, contract_address)
  WHERE contract_address IS NOT NULL;
CREATE UNIQUE INDEX classic_drafts_tx ON classic_drafts (chain_id, tx_hash) WHERE tx_hash IS NOT NULL;
