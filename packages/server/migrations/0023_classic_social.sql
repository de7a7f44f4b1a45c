-- Classic API signed-in tools (issue 14): reactions, reports and metadata
-- refreshes. A target is a game (its drop address, token_id '') or one pack of
-- it (token_id = the decimal token id). Accounts are the market's; deleting an
-- account deletes its reactions, keeps its reports (account_id set null) for
-- the operators.

-- One row per account, target and reaction kind that is set; clearing deletes it.
CREATE TABLE classic_reactions (
  chain_id          integer     NOT NULL,
  contract_address  text        NOT NULL,
  token_id          text        NOT NULL DEFAULT '',
  account_id        text        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  kind              text        NOT NULL CHECK (kind IN ('like', 'love', 'fire', 'laugh', 'wow', 'sad')),
  created_at        timestamptz NOT NULL,
  PRIMARY KEY (chain_id, contract_address, token_id, account_id, kind)
);
CREATE INDEX classic_reactions_account ON classic_reactions (account_id);

CREATE TABLE classic_reports (
  id                text        PRIMARY KEY,
  chain_id          integer     NOT NULL,
  contract_address  text        NOT NULL,
  token_id          text        NOT NULL DEFAULT '',
  account_id        text        REFERENCES accounts (id) ON DELETE SET NULL,
  reason            text        NOT NULL,
  details           text,
  status            text        NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved', 'dismissed')),
  created_at        timestamptz NOT NULL,
  reviewed_at       timestamptz
);
-- The hourly limit counts an account's recent reports.
CREATE INDEX classic_reports_account ON classic_reports (account_id, created_at);
-- A duplicate is a second open report of one account on one target.
CREATE UNIQUE INDEX classic_reports_open ON classic_reports (account_id, chain_id, contract_address, token_id)
  WHERE status = 'open';
CREATE INDEX classic_reports_listing ON classic_reports (status, created_at DESC, id DESC);

-- The latest refresh of each target: the cooldown every replica sees.
CREATE TABLE classic_refresh_targets (
  chain_id          integer     NOT NULL,
  contract_address  text        NOT NULL,
  token_id          text        NOT NULL DEFAULT '',
  refreshed_at      timestamptz NOT NULL,
  PRIMARY KEY (chain_id, contract_address, token_id)
);

-- Every refresh performed (not those answered inside a cooldown): the per-account hourly limit.
CREATE TABLE classic_refreshes (
  account_id        text        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  chain_id          integer     NOT NULL,
  contract_address  text        NOT NULL,
  token_id          text        NOT NULL DEFAULT '',
  refreshed_at      timestamptz NOT NULL
);
CREATE INDEX classic_refreshes_account ON classic_refreshes (account_id, refreshed_at);
