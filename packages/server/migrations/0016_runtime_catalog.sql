-- The market's runtime catalog comes from the chain: one indexer scope per
-- RuntimeRegistry (`<chainId>:registry:<address>`) indexes `RuntimeRegistered`
-- into market_runtimes and follows each registered ClaimDrops contract (a child
-- the registry's log creates). Configuration only names the registry.
--
-- The per-runtime scopes of earlier builds (`<chainId>:runtime:<id>`) are
-- gone: their projection is dropped here and rebuilt by the registry scope
-- from the registry's start block. Claims and drops are keyed with the chain id.

DELETE FROM chain_events WHERE scope LIKE '%:runtime:%';
DELETE FROM indexer_undo WHERE scope LIKE '%:runtime:%';
DELETE FROM indexer_blocks WHERE scope LIKE '%:runtime:%';
DELETE FROM indexer_contracts WHERE scope LIKE '%:runtime:%';
DELETE FROM indexer_heads WHERE scope LIKE '%:runtime:%';

DROP TABLE market_claims;
DROP TABLE market_drops;

-- What the creating log named a discovered contract (a ClaimDrops: its runtime id).
ALTER TABLE indexer_contracts ADD COLUMN label text;

-- One row per runtime id of a registry, from its first RuntimeRegistered (a
-- later registration reusing an id is ignored: clients select runtimes by id).
CREATE TABLE market_runtimes (
  scope                text NOT NULL,
  chain_id             integer NOT NULL,
  runtime_id           text NOT NULL,
  version              numeric NOT NULL,
  registry             text NOT NULL,
  claim_drops          text NOT NULL,
  registered_block     bigint NOT NULL,
  registered_tx        text NOT NULL,
  registered_at        timestamptz NOT NULL,
  PRIMARY KEY (chain_id, runtime_id)
);
CREATE INDEX market_runtimes_scope ON market_runtimes (scope, version DESC);

CREATE TABLE market_drops (
  scope          text NOT NULL,
  chain_id       integer NOT NULL,
  runtime_id     text NOT NULL,
  drop_id        numeric NOT NULL,
  contract       text NOT NULL,
  creator        text NOT NULL,
  price          numeric NOT NULL,
  max_supply     numeric NOT NULL,
  claimed        numeric NOT NULL DEFAULT 0,
  created_block  bigint NOT NULL,
  created_tx     text NOT NULL,
  updated_block  bigint NOT NULL,
  PRIMARY KEY (chain_id, runtime_id, drop_id)
);
CREATE INDEX market_drops_order ON market_drops (chain_id, runtime_id, created_block, drop_id);

-- A log's position is unique on its chain: (chain_id, block_number, log_index)
-- is every claim's key and the immutable order the claims list pages over.
CREATE TABLE market_claims (
  scope             text NOT NULL,
  chain_id          integer NOT NULL,
  runtime_id        text NOT NULL,
  block_number      bigint NOT NULL,
  log_index         integer NOT NULL,
  transaction_hash  text NOT NULL,
  block_time        timestamptz NOT NULL,
  contract          text NOT NULL,
  owner             text NOT NULL,
  drop_id           numeric NOT NULL,
  quantity          numeric NOT NULL,
  paid              numeric NOT NULL,
  total_claimed     numeric NOT NULL,
  PRIMARY KEY (chain_id, block_number, log_index)
);
CREATE INDEX market_claims_owner ON market_claims (chain_id, runtime_id, owner, block_number, log_index);
CREATE INDEX market_claims_owner_drop
  ON market_claims (chain_id, runtime_id, owner, drop_id, block_number, log_index);
CREATE INDEX market_claims_scope ON market_claims (scope, block_number);

-- Per-deployment secrets, generated once by the first replica that needs one
-- (INSERT … ON CONFLICT DO NOTHING) and shared by every replica: the claims
-- cursors' HMAC key. Never sent, never logged.
CREATE TABLE server_secrets (
  name        text PRIMARY KEY,
  secret      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
