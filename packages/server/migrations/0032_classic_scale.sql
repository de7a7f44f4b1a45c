-- Classic reads at volume: summaries of classic_packs kept by the database in
-- the statement that changes the packs, and indexes that let every list read
-- its page from an index.
--
-- The summaries are maintained by statement-level triggers on classic_packs
-- (one per event: transition tables allow one event per trigger). Every
-- writer of classic_packs keeps them right without knowing of them: the
-- indexer's batch upsert, a reorg's replay of the undo log (delete, then
-- re-insert the previous image), a scope reset, test fixtures and the bulk
-- loader of the scale benchmark. They commit and roll back with the pack rows.
--
-- A summary row that falls to zero is deleted, so each table holds exactly
-- what a GROUP BY over classic_packs returns (classic_summaries_recomputed
-- below; the projection check compares the two).

-- Packs by game, status and rarity: the totals of `/range`.
CREATE TABLE classic_pack_counts (
  chain_id          integer  NOT NULL,
  contract_address  text     NOT NULL,
  status            text     NOT NULL,
  rarity            smallint NOT NULL,
  packs             bigint   NOT NULL,
  PRIMARY KEY (chain_id, contract_address, status, rarity)
);

-- Per wallet and chain: its packs by current status and the Wei they cost at
-- mint. The collectors leaderboard reads it in order; `/owner` and holdings
-- read their totals from it.
CREATE TABLE classic_collectors (
  chain_id   integer NOT NULL,
  owner      text    NOT NULL,
  minted     bigint  NOT NULL,
  assigned   bigint  NOT NULL,
  opened     bigint  NOT NULL,
  burned     bigint  NOT NULL,
  spent      numeric NOT NULL,
  held       bigint  GENERATED ALWAYS AS (minted + assigned + opened) STORED,
  PRIMARY KEY (chain_id, owner)
);
CREATE INDEX classic_collectors_rank ON classic_collectors (chain_id, held DESC, opened DESC, spent DESC, owner);

-- The same per wallet and game.
CREATE TABLE classic_game_collectors (
  chain_id          integer NOT NULL,
  contract_address  text    NOT NULL,
  owner             text    NOT NULL,
  minted            bigint  NOT NULL,
  assigned          bigint  NOT NULL,
  opened            bigint  NOT NULL,
  burned            bigint  NOT NULL,
  spent             numeric NOT NULL,
  held              bigint  GENERATED ALWAYS AS (minted + assigned + opened) STORED,
  PRIMARY KEY (chain_id, contract_address, owner)
);
CREATE INDEX classic_game_collectors_rank
  ON classic_game_collectors (chain_id, contract_address, held DESC, opened DESC, spent DESC, owner);

-- Per game: wallets holding an unburned pack, wallets with any pack.
CREATE TABLE classic_game_holders (
  chain_id          integer NOT NULL,
  contract_address  text    NOT NULL,
  holders           bigint  NOT NULL,
  collectors        bigint  NOT NULL,
  PRIMARY KEY (chain_id, contract_address)
);

-- Per chain: the same over every game, and the offers paid for sold-back packs.
CREATE TABLE classic_platform_totals (
  chain_id      integer PRIMARY KEY,
  holders       bigint  NOT NULL,
  collectors    bigint  NOT NULL,
  rewards_paid  numeric NOT NULL
);

-- Packs minted per chain and UTC hour of their mint time, and what they cost:
-- the last 24 hours of `/stats` are the whole hours in the window plus the
-- packs of its first, partial hour.
CREATE TABLE classic_mint_hours (
  chain_id  integer     NOT NULL,
  hour      timestamptz NOT NULL,
  packs     bigint      NOT NULL,
  volume    numeric     NOT NULL,
  PRIMARY KEY (chain_id, hour)
);

-- Applies signed pack changes, grouped as finely as every summary needs:
-- [{chain_id, contract_address, owner, status, rarity, hour, packs, spent, rewards}],
-- `packs` the signed count, `spent` the signed sum of acquired prices,
-- `rewards` the signed sum of reward amounts.
CREATE FUNCTION classic_summary_rows(changes jsonb) RETURNS TABLE (
  chain_id integer, contract_address text, owner text, status text, rarity smallint,
  hour timestamptz, packs bigint, spent numeric, rewards numeric
) LANGUAGE sql IMMUTABLE AS $$
  SELECT * FROM jsonb_to_recordset(changes) AS c(
    chain_id integer, contract_address text, owner text, status text, rarity smallint,
    hour timestamptz, packs bigint, spent numeric, rewards numeric)
$$;

CREATE FUNCTION classic_summaries_apply(changes jsonb) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (
    SELECT chain_id, contract_address, status, rarity, sum(packs) AS packs
    FROM classic_summary_rows(changes) GROUP BY 1, 2, 3, 4 HAVING sum(packs) <> 0
  )
  INSERT INTO classic_pack_counts AS t (chain_id, contract_address, status, rarity, packs)
    SELECT * FROM d
    ON CONFLICT (chain_id, contract_address, status, rarity) DO UPDATE SET packs = t.packs + EXCLUDED.packs;
  -- Only a row something was taken from can have fallen to zero.
  DELETE FROM classic_pack_counts t USING classic_summary_rows(changes) c
    WHERE c.packs < 0 AND t.packs = 0 AND t.chain_id = c.chain_id AND t.contract_address = c.contract_address
      AND t.status = c.status AND t.rarity = c.rarity;

  -- Per wallet and game; a wallet's first pack (or first unburned pack) of a
  -- game counts it once among the game's collectors (holders), its last one uncounts it.
  WITH d AS (
    SELECT chain_id, contract_address, owner,
           sum(packs) FILTER (WHERE status = 'minted') AS minted,
           sum(packs) FILTER (WHERE status = 'rarity_assigned') AS assigned,
           sum(packs) FILTER (WHERE status = 'opened') AS opened,
           sum(packs) FILTER (WHERE status = 'burned') AS burned,
           sum(spent) AS spent
    FROM classic_summary_rows(changes) GROUP BY 1, 2, 3
  ), d0 AS (
    SELECT chain_id, contract_address, owner, coalesce(minted, 0) AS minted, coalesce(assigned, 0) AS assigned,
           coalesce(opened, 0) AS opened, coalesce(burned, 0) AS burned, spent
    FROM d
  ), u AS (
    INSERT INTO classic_game_collectors AS t (chain_id, contract_address, owner, minted, assigned, opened, burned, spent)
      SELECT * FROM d0
      ON CONFLICT (chain_id, contract_address, owner) DO UPDATE SET
        minted = t.minted + EXCLUDED.minted, assigned = t.assigned + EXCLUDED.assigned,
        opened = t.opened + EXCLUDED.opened, burned = t.burned + EXCLUDED.burned, spent = t.spent + EXCLUDED.spent
      RETURNING t.chain_id, t.contract_address, t.owner, t.minted + t.assigned + t.opened AS held,
        t.minted + t.assigned + t.opened + t.burned AS packs
  ), moved AS (
    SELECT u.chain_id, u.contract_address,
           sum(sign(u.held) - sign(u.held - (d0.minted + d0.assigned + d0.opened))) AS holders,
           sum(sign(u.packs) - sign(u.packs - (d0.minted + d0.assigned + d0.opened + d0.burned))) AS collectors
    FROM u JOIN d0 USING (chain_id, contract_address, owner)
    GROUP BY 1, 2
  )
  INSERT INTO classic_game_holders AS t (chain_id, contract_address, holders, collectors)
    SELECT * FROM moved WHERE holders <> 0 OR collectors <> 0
    ON CONFLICT (chain_id, contract_address) DO UPDATE SET
      holders = t.holders + EXCLUDED.holders, collectors = t.collectors + EXCLUDED.collectors;
  DELETE FROM classic_game_collectors t USING classic_summary_rows(changes) c
    WHERE c.packs < 0 AND t.minted = 0 AND t.assigned = 0 AND t.opened = 0 AND t.burned = 0
      AND t.chain_id = c.chain_id AND t.contract_address = c.contract_address AND t.owner = c.owner;
  DELETE FROM classic_game_holders t USING classic_summary_rows(changes) c
    WHERE c.packs < 0 AND t.holders = 0 AND t.collectors = 0 AND t.chain_id = c.chain_id AND t.contract_address = c.contract_address;

  -- Per wallet over every game, and the chain's totals.
  WITH d AS (
    SELECT chain_id, owner,
           coalesce(sum(packs) FILTER (WHERE status = 'minted'), 0) AS minted,
           coalesce(sum(packs) FILTER (WHERE status = 'rarity_assigned'), 0) AS assigned,
           coalesce(sum(packs) FILTER (WHERE status = 'opened'), 0) AS opened,
           coalesce(sum(packs) FILTER (WHERE status = 'burned'), 0) AS burned,
           sum(spent) AS spent
    FROM classic_summary_rows(changes) GROUP BY 1, 2
  ), u AS (
    INSERT INTO classic_collectors AS t (chain_id, owner, minted, assigned, opened, burned, spent)
      SELECT * FROM d
      ON CONFLICT (chain_id, owner) DO UPDATE SET
        minted = t.minted + EXCLUDED.minted, assigned = t.assigned + EXCLUDED.assigned,
        opened = t.opened + EXCLUDED.opened, burned = t.burned + EXCLUDED.burned, spent = t.spent + EXCLUDED.spent
      RETURNING t.chain_id, t.owner, t.minted + t.assigned + t.opened AS held,
        t.minted + t.assigned + t.opened + t.burned AS packs
  ), moved AS (
    SELECT u.chain_id,
           sum(sign(u.held) - sign(u.held - (d.minted + d.assigned + d.opened))) AS holders,
           sum(sign(u.packs) - sign(u.packs - (d.minted + d.assigned + d.opened + d.burned))) AS collectors
    FROM u JOIN d USING (chain_id, owner)
    GROUP BY 1
  ), rewards AS (
    SELECT chain_id, coalesce(sum(rewards) FILTER (WHERE status = 'burned'), 0) AS rewards_paid
    FROM classic_summary_rows(changes) GROUP BY 1
  )
  INSERT INTO classic_platform_totals AS t (chain_id, holders, collectors, rewards_paid)
    SELECT r.chain_id, coalesce(m.holders, 0), coalesce(m.collectors, 0), r.rewards_paid
    FROM rewards r LEFT JOIN moved m USING (chain_id)
    WHERE coalesce(m.holders, 0) <> 0 OR coalesce(m.collectors, 0) <> 0 OR r.rewards_paid <> 0
    ON CONFLICT (chain_id) DO UPDATE SET
      holders = t.holders + EXCLUDED.holders, collectors = t.collectors + EXCLUDED.collectors,
      rewards_paid = t.rewards_paid + EXCLUDED.rewards_paid;
  DELETE FROM classic_collectors t USING classic_summary_rows(changes) c
    WHERE c.packs < 0 AND t.minted = 0 AND t.assigned = 0 AND t.opened = 0 AND t.burned = 0
      AND t.chain_id = c.chain_id AND t.owner = c.owner;
  DELETE FROM classic_platform_totals t USING classic_summary_rows(changes) c
    WHERE c.packs < 0 AND t.holders = 0 AND t.collectors = 0 AND t.rewards_paid = 0 AND t.chain_id = c.chain_id;

  WITH d AS (
    SELECT chain_id, hour, sum(packs) AS packs, sum(spent) AS volume
    FROM classic_summary_rows(changes) GROUP BY 1, 2 HAVING sum(packs) <> 0 OR sum(spent) <> 0
  )
  INSERT INTO classic_mint_hours AS t (chain_id, hour, packs, volume)
    SELECT * FROM d
    ON CONFLICT (chain_id, hour) DO UPDATE SET packs = t.packs + EXCLUDED.packs, volume = t.volume + EXCLUDED.volume;
  DELETE FROM classic_mint_hours t USING classic_summary_rows(changes) c
    WHERE c.packs < 0 AND t.packs = 0 AND t.volume = 0 AND t.chain_id = c.chain_id AND t.hour = c.hour;
END $$;

-- The changes of a set of pack rows, signed: +1 for rows that now exist, -1 for rows that no longer do.
CREATE FUNCTION classic_packs_inserted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM classic_summaries_apply(coalesce((
    SELECT jsonb_agg(c) FROM (
      SELECT chain_id, contract_address, owner, status, rarity, date_trunc('hour', mint_time, 'UTC') AS hour,
             count(*) AS packs, sum(acquired_price) AS spent, coalesce(sum(reward_amount), 0) AS rewards
      FROM new_packs GROUP BY 1, 2, 3, 4, 5, 6) c), '[]'));
  RETURN NULL;
END $$;

CREATE FUNCTION classic_packs_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM classic_summaries_apply(coalesce((
    SELECT jsonb_agg(c) FROM (
      SELECT chain_id, contract_address, owner, status, rarity, date_trunc('hour', mint_time, 'UTC') AS hour,
             -count(*) AS packs, -sum(acquired_price) AS spent, -coalesce(sum(reward_amount), 0) AS rewards
      FROM old_packs GROUP BY 1, 2, 3, 4, 5, 6) c), '[]'));
  RETURN NULL;
END $$;

CREATE FUNCTION classic_packs_updated() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM classic_summaries_apply(coalesce((
    SELECT jsonb_agg(c) FROM (
      SELECT chain_id, contract_address, owner, status, rarity, hour,
             sum(packs) AS packs, sum(spent) AS spent, sum(rewards) AS rewards
      FROM (
        SELECT chain_id, contract_address, owner, status, rarity, date_trunc('hour', mint_time, 'UTC') AS hour,
               1 AS packs, acquired_price AS spent, coalesce(reward_amount, 0) AS rewards
        FROM new_packs
        UNION ALL
        SELECT chain_id, contract_address, owner, status, rarity, date_trunc('hour', mint_time, 'UTC'),
               -1, -acquired_price, -coalesce(reward_amount, 0)
        FROM old_packs
      ) signed
      GROUP BY 1, 2, 3, 4, 5, 6
      HAVING sum(packs) <> 0 OR sum(spent) <> 0 OR sum(rewards) <> 0) c), '[]'));
  RETURN NULL;
END $$;

CREATE TRIGGER classic_packs_summary_insert AFTER INSERT ON classic_packs
  REFERENCING NEW TABLE AS new_packs FOR EACH STATEMENT EXECUTE FUNCTION classic_packs_inserted();
CREATE TRIGGER classic_packs_summary_delete AFTER DELETE ON classic_packs
  REFERENCING OLD TABLE AS old_packs FOR EACH STATEMENT EXECUTE FUNCTION classic_packs_deleted();
CREATE TRIGGER classic_packs_summary_update AFTER UPDATE ON classic_packs
  REFERENCING OLD TABLE AS old_packs NEW TABLE AS new_packs FOR EACH STATEMENT EXECUTE FUNCTION classic_packs_updated();

-- What every summary holds, computed from classic_packs: the migration fills
-- the summaries from it, and the projection check compares them with it.
CREATE VIEW classic_summaries_recomputed AS
  SELECT 'classic_pack_counts' AS summary,
         jsonb_build_array(chain_id, contract_address, status, rarity) AS key,
         jsonb_build_array(count(*)) AS value
    FROM classic_packs GROUP BY chain_id, contract_address, status, rarity
  UNION ALL
  SELECT 'classic_game_collectors',
         jsonb_build_array(chain_id, contract_address, owner),
         jsonb_build_array(count(*) FILTER (WHERE status = 'minted'), count(*) FILTER (WHERE status = 'rarity_assigned'),
           count(*) FILTER (WHERE status = 'opened'), count(*) FILTER (WHERE status = 'burned'), sum(acquired_price))
    FROM classic_packs GROUP BY chain_id, contract_address, owner
  UNION ALL
  SELECT 'classic_collectors',
         jsonb_build_array(chain_id, owner),
         jsonb_build_array(count(*) FILTER (WHERE status = 'minted'), count(*) FILTER (WHERE status = 'rarity_assigned'),
           count(*) FILTER (WHERE status = 'opened'), count(*) FILTER (WHERE status = 'burned'), sum(acquired_price))
    FROM classic_packs GROUP BY chain_id, owner
  UNION ALL
  SELECT 'classic_game_holders',
         jsonb_build_array(chain_id, contract_address),
         jsonb_build_array(count(DISTINCT owner) FILTER (WHERE status <> 'burned'), count(DISTINCT owner))
    FROM classic_packs GROUP BY chain_id, contract_address
  UNION ALL
  SELECT 'classic_platform_totals',
         jsonb_build_array(chain_id),
         jsonb_build_array(count(DISTINCT owner) FILTER (WHERE status <> 'burned'), count(DISTINCT owner),
           coalesce(sum(reward_amount) FILTER (WHERE status = 'burned'), 0))
    FROM classic_packs GROUP BY chain_id
  UNION ALL
  SELECT 'classic_mint_hours',
         jsonb_build_array(chain_id, date_trunc('hour', mint_time, 'UTC')),
         jsonb_build_array(count(*), sum(acquired_price))
    FROM classic_packs GROUP BY chain_id, date_trunc('hour', mint_time, 'UTC');

-- The same read from the summaries, in the same form.
CREATE VIEW classic_summaries_kept AS
  SELECT 'classic_pack_counts' AS summary, jsonb_build_array(chain_id, contract_address, status, rarity) AS key,
         jsonb_build_array(packs) AS value
    FROM classic_pack_counts
  UNION ALL
  SELECT 'classic_game_collectors', jsonb_build_array(chain_id, contract_address, owner),
         jsonb_build_array(minted, assigned, opened, burned, spent)
    FROM classic_game_collectors
  UNION ALL
  SELECT 'classic_collectors', jsonb_build_array(chain_id, owner),
         jsonb_build_array(minted, assigned, opened, burned, spent)
    FROM classic_collectors
  UNION ALL
  SELECT 'classic_game_holders', jsonb_build_array(chain_id, contract_address), jsonb_build_array(holders, collectors)
    FROM classic_game_holders
  UNION ALL
  SELECT 'classic_platform_totals', jsonb_build_array(chain_id), jsonb_build_array(holders, collectors, rewards_paid)
    FROM classic_platform_totals
  UNION ALL
  SELECT 'classic_mint_hours', jsonb_build_array(chain_id, hour), jsonb_build_array(packs, volume)
    FROM classic_mint_hours;

-- Rebuilds every summary from classic_packs: fills them for the packs already
-- projected here, and after a bulk load written with the triggers off
-- (`session_replication_role = replica`), where one GROUP BY per summary is
-- cheaper than a trigger per statement.
CREATE FUNCTION classic_summaries_rebuild() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM classic_pack_counts;
  DELETE FROM classic_game_collectors;
  DELETE FROM classic_collectors;
  DELETE FROM classic_game_holders;
  DELETE FROM classic_platform_totals;
  DELETE FROM classic_mint_hours;
  INSERT INTO classic_pack_counts
    SELECT chain_id, contract_address, status, rarity, count(*) FROM classic_packs GROUP BY 1, 2, 3, 4;
  INSERT INTO classic_game_collectors (chain_id, contract_address, owner, minted, assigned, opened, burned, spent)
    SELECT chain_id, contract_address, owner, count(*) FILTER (WHERE status = 'minted'),
           count(*) FILTER (WHERE status = 'rarity_assigned'), count(*) FILTER (WHERE status = 'opened'),
           count(*) FILTER (WHERE status = 'burned'), sum(acquired_price)
    FROM classic_packs GROUP BY 1, 2, 3;
  INSERT INTO classic_collectors (chain_id, owner, minted, assigned, opened, burned, spent)
    SELECT chain_id, owner, sum(minted), sum(assigned), sum(opened), sum(burned), sum(spent)
    FROM classic_game_collectors GROUP BY 1, 2;
  INSERT INTO classic_game_holders
    SELECT chain_id, contract_address, count(*) FILTER (WHERE held > 0), count(*)
    FROM classic_game_collectors GROUP BY 1, 2;
  INSERT INTO classic_platform_totals
    SELECT c.chain_id, c.holders, c.collectors, coalesce(r.rewards_paid, 0)
    FROM (SELECT chain_id, count(*) FILTER (WHERE held > 0) AS holders, count(*) AS collectors
          FROM classic_collectors GROUP BY 1) c
    LEFT JOIN (SELECT chain_id, sum(reward_amount) AS rewards_paid FROM classic_packs
               WHERE status = 'burned' GROUP BY 1) r USING (chain_id);
  INSERT INTO classic_mint_hours
    SELECT chain_id, date_trunc('hour', mint_time, 'UTC'), count(*), sum(acquired_price)
    FROM classic_packs GROUP BY 1, 2;
END $$;

SELECT classic_summaries_rebuild();

-- Pack lists read their page from an index in their order, the filter
-- columns included so a deep page skips entries without visiting rows.
DROP INDEX classic_packs_owner;
DROP INDEX classic_packs_updated;
DROP INDEX classic_packs_contract_status;
DROP INDEX classic_packs_minted;
-- Holdings: by owner, then drop address and token id.
CREATE INDEX classic_packs_owner ON classic_packs (chain_id, owner, contract_address, token_id) INCLUDE (status);
-- `/owner`: the latest update first (either direction).
CREATE INDEX classic_packs_owner_updated
  ON classic_packs (chain_id, owner, updated_at, contract_address, token_id) INCLUDE (status);
-- `/range` by latest update (its default), by status then latest update, by mint time, by rarity.
CREATE INDEX classic_packs_updated
  ON classic_packs (chain_id, contract_address, updated_at DESC, token_id DESC) INCLUDE (status, rarity);
CREATE INDEX classic_packs_status_updated
  ON classic_packs (chain_id, contract_address, status, updated_at DESC, token_id DESC) INCLUDE (rarity);
CREATE INDEX classic_packs_mint_order
  ON classic_packs (chain_id, contract_address, mint_time, token_id) INCLUDE (status, rarity);
CREATE INDEX classic_packs_rarity ON classic_packs (chain_id, contract_address, rarity, token_id) INCLUDE (status);
-- The first, partial hour of `/stats`' last 24 hours.
CREATE INDEX classic_packs_minted ON classic_packs (chain_id, mint_time) INCLUDE (acquired_price);
