-- Indexer state and the projections the three APIs read. Token ids and
-- amounts are numeric (exact, up to 78 digits); block numbers are bigint.

-- One row per scope (chain + contract set + runtime): exactly the claims `head` object.
CREATE TABLE indexer_heads (
  scope          text PRIMARY KEY,
  chain_id       integer NOT NULL,
  -- Hash of block 0 of the chain this scope indexed; another value means the chain is gone.
  genesis_hash   text,
  next_block     bigint NOT NULL,
  -- Hash of block next_block - 1, the last block indexed.
  block_hash     text,
  revision       bigint NOT NULL DEFAULT 0,
  updated_at     timestamptz NOT NULL DEFAULT now(),
  failure        text,
  observed_head  bigint,
  observed_at    timestamptz,
  webhook_audit  jsonb NOT NULL DEFAULT '{}'::jsonb
);

-- Hashes of the unfinalised window, for reorg detection by hash and parent hash.
CREATE TABLE indexer_blocks (
  scope        text NOT NULL,
  number       bigint NOT NULL,
  hash         text NOT NULL,
  parent_hash  text NOT NULL,
  PRIMARY KEY (scope, number)
);

-- Previous images of state rows changed inside the unfinalised window, replayed backwards on a reorg.
CREATE TABLE indexer_undo (
  scope         text NOT NULL,
  seq           bigserial,
  block_number  bigint NOT NULL,
  table_name    text NOT NULL,
  row_key       jsonb NOT NULL,
  previous      jsonb,
  PRIMARY KEY (scope, seq)
);
CREATE INDEX indexer_undo_block ON indexer_undo (scope, block_number);

-- Contracts a scope discovered from factory events (booster drops and tokens, markets).
CREATE TABLE indexer_contracts (
  scope         text NOT NULL,
  address       text NOT NULL,
  kind          text NOT NULL,
  -- The contract this one belongs to (a booster token's drop).
  parent        text,
  block_number  bigint NOT NULL,
  PRIMARY KEY (scope, address)
);

-- Every log a scope applied: the activity feeds read it, recovery checks it, reorgs delete from it.
CREATE TABLE chain_events (
  scope             text NOT NULL,
  block_number      bigint NOT NULL,
  log_index         integer NOT NULL,
  chain_id          integer NOT NULL,
  block_hash        text NOT NULL,
  block_time        timestamptz NOT NULL,
  transaction_hash  text NOT NULL,
  address           text NOT NULL,
  event             text NOT NULL,
  args              jsonb NOT NULL,
  PRIMARY KEY (scope, block_number, log_index)
);
CREATE INDEX chain_events_tx ON chain_events (transaction_hash);
CREATE INDEX chain_events_address ON chain_events (address, block_number, log_index);

-- Classic generation -------------------------------------------------------

CREATE TABLE classic_games (
  scope            text NOT NULL,
  chain_id         integer NOT NULL,
  drop_address     text NOT NULL,
  game_id          numeric NOT NULL,
  token_address    text NOT NULL,
  creator          text NOT NULL,
  nft_name         text NOT NULL,
  nft_symbol       text NOT NULL,
  token_name       text NOT NULL,
  token_symbol     text NOT NULL,
  price_per_pack   numeric NOT NULL,
  merkle_root      text NOT NULL,
  eth_reserve      numeric NOT NULL DEFAULT 0,
  tokens_sold      numeric NOT NULL DEFAULT 0,
  is_graduated     boolean NOT NULL DEFAULT false,
  pool_address     text,
  packs_minted     numeric NOT NULL DEFAULT 0,
  created_block    bigint NOT NULL,
  created_tx       text NOT NULL,
  created_at       timestamptz NOT NULL,
  updated_block    bigint NOT NULL,
  updated_at       timestamptz NOT NULL,
  PRIMARY KEY (chain_id, drop_address)
);
CREATE INDEX classic_games_token ON classic_games (chain_id, token_address);
CREATE INDEX classic_games_creator ON classic_games (chain_id, creator);

CREATE TABLE classic_packs (
  scope            text NOT NULL,
  chain_id                 integer NOT NULL,
  contract_address         text NOT NULL,
  token_id                 numeric NOT NULL,
  owner                    text NOT NULL,
  status                   text NOT NULL CHECK (status IN ('minted', 'rarity_assigned', 'opened', 'burned')),
  rarity                   smallint NOT NULL DEFAULT 0,
  batch_id                 numeric NOT NULL,
  token_seed               numeric,
  random_value             numeric,
  acquired_price           numeric NOT NULL,
  reward_amount            numeric,
  mint_tx                  text NOT NULL,
  mint_block               bigint NOT NULL,
  mint_time                timestamptz NOT NULL,
  rarity_tx                text,
  rarity_block             bigint,
  rarity_time              timestamptz,
  opened_tx                text,
  opened_block             bigint,
  opened_time              timestamptz,
  burn_tx                  text,
  burn_block               bigint,
  burn_time                timestamptz,
  updated_block            bigint NOT NULL,
  updated_at               timestamptz NOT NULL,
  PRIMARY KEY (chain_id, contract_address, token_id)
);
CREATE INDEX classic_packs_owner ON classic_packs (chain_id, owner, contract_address);
CREATE INDEX classic_packs_updated ON classic_packs (chain_id, contract_address, updated_at DESC);

-- Current generation ------------------------------------------------------

CREATE TABLE market_drops (
  scope            text NOT NULL,
  runtime_id    text NOT NULL,
  drop_id       numeric NOT NULL,
  creator       text NOT NULL,
  price         numeric NOT NULL,
  max_supply    numeric NOT NULL,
  claimed       numeric NOT NULL DEFAULT 0,
  created_block bigint NOT NULL,
  updated_block bigint NOT NULL,
  PRIMARY KEY (runtime_id, drop_id)
);

CREATE TABLE market_claims (
  scope            text NOT NULL,
  runtime_id        text NOT NULL,
  block_number      bigint NOT NULL,
  log_index         integer NOT NULL,
  transaction_hash  text NOT NULL,
  block_time        timestamptz NOT NULL,
  owner             text NOT NULL,
  drop_id           numeric NOT NULL,
  quantity          numeric NOT NULL,
  paid              numeric NOT NULL,
  total_claimed     numeric NOT NULL,
  PRIMARY KEY (runtime_id, block_number, log_index)
);
CREATE INDEX market_claims_owner ON market_claims (runtime_id, owner, block_number DESC, log_index DESC);

-- Prediction feed -----------------------------------------------------------

CREATE TABLE predict_markets (
  scope            text NOT NULL,
  chain_id       integer NOT NULL,
  address        text NOT NULL,
  market_id      numeric NOT NULL,
  creator        text NOT NULL,
  question       text NOT NULL,
  seed           numeric NOT NULL,
  fee_bps        integer NOT NULL,
  yes_pool       numeric NOT NULL,
  no_pool        numeric NOT NULL,
  backing        numeric NOT NULL,
  volume         numeric NOT NULL DEFAULT 0,
  status         text NOT NULL CHECK (status IN ('active', 'paused', 'resolved')),
  outcome        smallint,
  created_block  bigint NOT NULL,
  created_at     timestamptz NOT NULL,
  updated_block  bigint NOT NULL,
  updated_at     timestamptz NOT NULL,
  PRIMARY KEY (chain_id, address)
);
CREATE INDEX predict_markets_id ON predict_markets (chain_id, market_id DESC);

CREATE TABLE predict_trades (
  scope            text NOT NULL,
  chain_id          integer NOT NULL,
  block_number      bigint NOT NULL,
  log_index         integer NOT NULL,
  transaction_hash  text NOT NULL,
  block_time        timestamptz NOT NULL,
  market            text NOT NULL,
  trader            text NOT NULL,
  kind              text NOT NULL CHECK (kind IN ('buy', 'sell', 'redeem')),
  side              smallint,
  weth              numeric NOT NULL,
  fee               numeric NOT NULL,
  shares            numeric NOT NULL,
  PRIMARY KEY (chain_id, block_number, log_index)
);
CREATE INDEX predict_trades_market ON predict_trades (chain_id, market, block_number DESC);

CREATE TABLE predict_positions (
  scope            text NOT NULL,
  chain_id       integer NOT NULL,
  market         text NOT NULL,
  owner          text NOT NULL,
  yes_shares     numeric NOT NULL DEFAULT 0,
  no_shares      numeric NOT NULL DEFAULT 0,
  redeemed       numeric NOT NULL DEFAULT 0,
  updated_block  bigint NOT NULL,
  PRIMARY KEY (chain_id, market, owner)
);
