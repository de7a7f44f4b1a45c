-- The market at production volume: summaries for the board, and indexes in the order lists page.

-- The board's all-time figures read summaries the market projection keeps as it applies each
-- claim, instead of aggregating every claim on each read. Three places, all state rows of the
-- registry's scope (reorgs undo them from the undo log; a scope reset deletes them by `scope`):
--
-- - market_drops gains the drop's all-time claim figures: `claims` (Claimed events), `volume`
--   (wei paid), `holders` (distinct claiming wallets), `last_claim_at`, and the wallets whose first
--   claim from the drop's creator was in this drop, within the drop's runtime (`creator_holders`)
--   and within every runtime of the chain (`chain_holders`): summed over a creator's drops they
--   are the creator's distinct holders, so the creators' board adds up drops, never claims.
-- - market_board_holdings: one row per wallet and drop (its claims, packs and volume there); a new
--   row is a wallet's first claim from that drop.
-- - market_board_collectors: one row per wallet and runtime, and one per wallet for every runtime
--   of the chain (`runtime_id = ''`): claims, packs, volume, distinct drops, the creators claimed
--   from (`creators`, in the order of the wallet's first claim from each) and the last claim's time.

ALTER TABLE market_drops ADD COLUMN claims bigint NOT NULL DEFAULT 0;
ALTER TABLE market_drops ADD COLUMN volume numeric NOT NULL DEFAULT 0;
ALTER TABLE market_drops ADD COLUMN holders integer NOT NULL DEFAULT 0;
ALTER TABLE market_drops ADD COLUMN creator_holders integer NOT NULL DEFAULT 0;
ALTER TABLE market_drops ADD COLUMN chain_holders integer NOT NULL DEFAULT 0;
ALTER TABLE market_drops ADD COLUMN last_claim_at timestamptz;

CREATE TABLE market_board_holdings (
  scope       text NOT NULL,
  chain_id    integer NOT NULL,
  runtime_id  text NOT NULL,
  owner       text NOT NULL,
  drop_id     numeric NOT NULL,
  claims      bigint NOT NULL,
  packs       numeric NOT NULL,
  volume      numeric NOT NULL,
  PRIMARY KEY (chain_id, runtime_id, owner, drop_id)
);

CREATE TABLE market_board_collectors (
  scope          text NOT NULL,
  chain_id       integer NOT NULL,
  -- '' for the wallet's figures over every runtime of the chain.
  runtime_id     text NOT NULL,
  owner          text NOT NULL,
  claims         bigint NOT NULL,
  packs          numeric NOT NULL,
  volume         numeric NOT NULL,
  drops          integer NOT NULL,
  creators       jsonb NOT NULL,
  last_claim_at  timestamptz NOT NULL,
  PRIMARY KEY (chain_id, runtime_id, owner)
);
-- One index per ranking of the collectors' board (`sort`), in its full order, so a page at any
-- offset is read in order.
CREATE INDEX market_board_collectors_packs
  ON market_board_collectors (chain_id, runtime_id, packs DESC, volume DESC, owner);
CREATE INDEX market_board_collectors_volume
  ON market_board_collectors (chain_id, runtime_id, volume DESC, packs DESC, owner);
CREATE INDEX market_board_collectors_drops
  ON market_board_collectors (chain_id, runtime_id, drops DESC, packs DESC, volume DESC, owner);

-- The summaries of the claims already projected (statistics first: the joins below are planned on them).
ANALYZE market_claims;
ANALYZE market_drops;
INSERT INTO market_board_holdings (scope, chain_id, runtime_id, owner, drop_id, claims, packs, volume)
SELECT min(scope), chain_id, runtime_id, owner, drop_id, count(*), sum(quantity), sum(paid)
FROM market_claims
GROUP BY chain_id, runtime_id, owner, drop_id;

UPDATE market_drops d
SET claims = s.claims, volume = s.volume, holders = s.holders, last_claim_at = s.last_claim_at
FROM (
  SELECT chain_id, runtime_id, drop_id, count(*) AS claims, sum(paid) AS volume,
         count(DISTINCT owner) AS holders, max(block_time) AS last_claim_at
  FROM market_claims
  GROUP BY chain_id, runtime_id, drop_id
) s
WHERE d.chain_id = s.chain_id AND d.runtime_id = s.runtime_id AND d.drop_id = s.drop_id;

-- Each wallet's first claim from each creator, within a runtime and within the chain.
UPDATE market_drops d
SET creator_holders = s.n
FROM (
  SELECT chain_id, runtime_id, drop_id, count(*) AS n
  FROM (
    SELECT DISTINCT ON (c.chain_id, c.runtime_id, d.creator, c.owner) c.chain_id, c.runtime_id, c.drop_id
    FROM market_claims c
    JOIN market_drops d ON d.chain_id = c.chain_id AND d.runtime_id = c.runtime_id AND d.drop_id = c.drop_id
    ORDER BY c.chain_id, c.runtime_id, d.creator, c.owner, c.block_number, c.log_index
  ) firsts
  GROUP BY chain_id, runtime_id, drop_id
) s
WHERE d.chain_id = s.chain_id AND d.runtime_id = s.runtime_id AND d.drop_id = s.drop_id;

UPDATE market_drops d
SET chain_holders = s.n
FROM (
  SELECT chain_id, runtime_id, drop_id, count(*) AS n
  FROM (
    SELECT DISTINCT ON (c.chain_id, d.creator, c.owner) c.chain_id, c.runtime_id, c.drop_id
    FROM market_claims c
    JOIN market_drops d ON d.chain_id = c.chain_id AND d.runtime_id = c.runtime_id AND d.drop_id = c.drop_id
    ORDER BY c.chain_id, d.creator, c.owner, c.block_number, c.log_index
  ) firsts
  GROUP BY chain_id, runtime_id, drop_id
) s
WHERE d.chain_id = s.chain_id AND d.runtime_id = s.runtime_id AND d.drop_id = s.drop_id;

INSERT INTO market_board_collectors (scope, chain_id, runtime_id, owner, claims, packs, volume, drops, creators, last_claim_at)
SELECT min(c.scope), c.chain_id, r.runtime_id, c.owner, count(*), sum(c.quantity), sum(c.paid),
       count(DISTINCT c.runtime_id || ':' || c.drop_id::text), COALESCE(f.creators, '[]'::jsonb), max(c.block_time)
FROM market_claims c
CROSS JOIN LATERAL (VALUES (c.runtime_id), ('')) AS r (runtime_id)
LEFT JOIN (
  -- The creators a wallet claimed from, in the order of its first claim from each.
  SELECT chain_id, runtime_id, owner, jsonb_agg(creator ORDER BY block_number, log_index) AS creators
  FROM (
    SELECT DISTINCT ON (c.chain_id, r.runtime_id, c.owner, d.creator)
           c.chain_id, r.runtime_id, c.owner, d.creator, c.block_number, c.log_index
    FROM market_claims c
    CROSS JOIN LATERAL (VALUES (c.runtime_id), ('')) AS r (runtime_id)
    JOIN market_drops d ON d.chain_id = c.chain_id AND d.runtime_id = c.runtime_id AND d.drop_id = c.drop_id
    ORDER BY c.chain_id, r.runtime_id, c.owner, d.creator, c.block_number, c.log_index
  ) firsts
  GROUP BY chain_id, runtime_id, owner
) f ON f.chain_id = c.chain_id AND f.runtime_id = r.runtime_id AND f.owner = c.owner
GROUP BY c.chain_id, r.runtime_id, c.owner, f.creators;

-- Follow lists page by (time, account) from a cursor: indexes in that order, so a deep page starts
-- at the cursor instead of filtering every newer follow of a popular account.
CREATE INDEX follows_followee_order ON follows (followee_id, created_at, follower_id);
CREATE INDEX follows_follower_order ON follows (follower_id, created_at, followee_id);
DROP INDEX follows_followee;
DROP INDEX follows_follower;

-- An account's releases, last changed first (its own list, a creator's public list).
CREATE INDEX releases_owner_seq ON releases (owner_id, seq DESC);
DROP INDEX releases_owner;

-- How many accounts follow an account and how many it follows, kept by the follows table's own
-- changes (a follow, an unfollow, an account's deletion cascading to its follows), so a creator's
-- page reads two numbers instead of counting a popular account's followers.
CREATE TABLE account_follow_counts (
  account_id  text PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  followers   bigint NOT NULL DEFAULT 0,
  following   bigint NOT NULL DEFAULT 0
);

INSERT INTO account_follow_counts (account_id, followers, following)
SELECT a.id,
       (SELECT count(*) FROM follows f WHERE f.followee_id = a.id),
       (SELECT count(*) FROM follows f WHERE f.follower_id = a.id)
FROM accounts a
WHERE EXISTS (SELECT 1 FROM follows f WHERE f.followee_id = a.id OR f.follower_id = a.id);

CREATE FUNCTION account_follow_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO account_follow_counts (account_id, followers) VALUES (NEW.followee_id, 1)
      ON CONFLICT (account_id) DO UPDATE SET followers = account_follow_counts.followers + 1;
    INSERT INTO account_follow_counts (account_id, following) VALUES (NEW.follower_id, 1)
      ON CONFLICT (account_id) DO UPDATE SET following = account_follow_counts.following + 1;
    RETURN NEW;
  END IF;
  -- A deleted account's own row goes with it (ON DELETE CASCADE): only existing rows are lowered.
  UPDATE account_follow_counts SET followers = followers - 1 WHERE account_id = OLD.followee_id;
  UPDATE account_follow_counts SET following = following - 1 WHERE account_id = OLD.follower_id;
  RETURN OLD;
END;
$$;

CREATE TRIGGER account_follow_counts_track
  AFTER INSERT OR DELETE ON follows
  FOR EACH ROW EXECUTE FUNCTION account_follow_counts_track();
