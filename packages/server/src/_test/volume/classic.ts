// The classic projection at volume, written in bulk: games, packs in every state, open batches and
// the chain's log behind them (chain_events), as the indexer would have projected them from a chain
// of the live Classic contracts with that history. The scale benchmark (bench/scale/classic.ts) loads
// it at SCALE times its production volumes; the plan test (classic/query-plans.test.ts) at about
// 200,000 packs.
//
// The history is generated in SQL from hashes of row numbers, so a volume always loads the same
// rows (block times are relative to the load). Its shape:
// - games: sizes follow a power law (game g has a share proportional to g^-0.8; at 1,000 games
//   the largest holds about 6.5% of the packs), created over the first half of a 180-day window of
//   2-second blocks; every seventh graduates, every thirteenth is paused at the end; a few start
//   their token ids above 2^64. Each mints `tokensPerMint` = 1,000 tokens a pack on a curve whose
//   virtual reserves put a pack near its nominal price (0.001 to 0.02 ETH); offers are the sample
//   games' (DEFAULT_OFFER_BPS of tokensPerMint) and odds the default ones;
// - packs: minted in mints of 1 to 10 by wallets drawn with a heavy tail (a few wallets hold tens of
//   thousands of packs), each an ETH mint paying about the nominal price per pack (its packs carry
//   their share); 70% of mints have 80% of their packs opened later, in one open batch by the
//   minter; 98% of open batches get their random number (rarities derived in JS with the drop's
//   rule, `deriveRarity`); 35% of the cards of those are sold (a third of them with `sellForEth`);
//   30% of the unopened packs change hands;
// - curve trades on each game's token fill the rest of the activity volume (every fourth a sale);
//   after graduation mints and `sellForEth` trade on the pool;
// - one game in a hundred is featured by the operator (classic_game_flags).
// The caller runs VACUUM ANALYZE afterwards (statistics and the visibility map), as autovacuum would.
// Every log the projection records is written: the factory's DropCreated and DropConfigured; the
// drop's BoosterDropsMinted with the ERC-721 mint transfers (not activity) and the drop's
// TokensPurchased of the same transaction, BoosterDropOpened, RarityAssigned per open batch,
// transfers between holders, BoosterDropSold with its burn transfer (and the drop's TokensSold for
// `sellForEth`), ActiveChanged; the token's TokensPurchased, TokensSold and MarketGraduated. Logs no
// projection or read uses (randomness requests and fulfilments, BoosterDropTransfer, the ERC-20
// transfers, OfferMinted, LiquiditySetup, approvals, the entropy settings of initialization) are
// left out. Each transaction has a block of its own time and a unique id; a log's index is that
// id × 16 plus its place in the transaction, unique in its block.
//
// `checkClassicSampleVolume` re-projects a sample of games from their stored logs with the real
// classic projection and batch store, and requires the same rows: games, packs, open batches, logs
// and every summary the classic_packs triggers keep.
import { DEFAULT_ODDS_BPS, DEFAULT_OFFER_BPS, deriveRarity } from "@mkt/chain";
import { type Abi, type AbiParameter, type Hex, hexToBigInt } from "viem";
import type { ClassicRole } from "../../chains/index.ts";
import type { Database, SqlConnection } from "../../db/index.ts";
import { createLogApplier } from "../../indexer/apply.ts";
import { classicProjection } from "../../indexer/classic-projection.ts";
import type { IndexedLog, ReadContract } from "../../indexer/projection.ts";
import type { DecodedLog } from "../../indexer/range-reader.ts";
import { BatchStore, readColumns } from "../../indexer/store.ts";

/** The production volumes the scale benchmark multiplies. */
export const CLASSIC_VOLUME = { games: 1_000, packs: 2_000_000, activity: 5_000_000, wallets: 100_000 };

/** The first block of the generated history and its length: 180 days of 2-second blocks. */
const START_BLOCK = 1_000_000;
const SPAN_BLOCKS = 7_776_000;
export const CLASSIC_VOLUME_LAST_BLOCK = START_BLOCK + SPAN_BLOCKS;

export interface ClassicVolume {
  games: number;
  packs: number;
  /** Activity records (the logs `/collection/{contractAddress}/events` and `/recent` return). */
  activity: number;
  wallets: number;
}

export interface ClassicVolumeContext {
  db: Database;
  /** A progress line. */
  log(line: string): void;
}

/**
 * The activity records a pack brings on average (measured on the generated history): its mint's, its
 * open batch's and that batch's `RarityAssigned` shares, its sale and its transfer between holders
 * (the drop's own token trades of its mints and sales and the mint and burn transfers are not
 * activity).
 */
const ACTIVITY_PER_PACK = 1.03;

/** A pack's tokens (`tokensPerMint`: 1,000 tokens of 18 decimals) and the curve's virtual tokens. */
const TOKENS_PER_MINT = "1000000000000000000000";
const VIRTUAL_TOKENS = "1000000000000000000000000000000";
const GRADUATION_ETH = "5000000000000000000";
const ZERO_ROOT = `0x${"0".repeat(64)}`;

/** A wallet of the generated history, by number (1..wallets). */
export const volumeWallet = (n: number) => `0xa0${n.toString(16).padStart(38, "0")}`;
/** The booster drop of game g. */
export const volumeDrop = (g: number) => `0xd0${g.toString(16).padStart(38, "0")}`;

// SQL helpers. `u(x, salt)`: a uniform double in [0, 1) from a 64-bit hash of x.
const u = (x: string, salt: number) =>
  `((hashint8extended((${x})::bigint, ${salt}) & 2147483647)::float8 / 2147483648.0)`;
const wallet = (n: string) => `('0xa0' || lpad(to_hex(${n}), 38, '0'))`;
const txHash = (id: string) => `('0x' || lpad(to_hex(${id}), 64, '0'))`;
const blockHash = (block: string) => `('0xb1' || lpad(to_hex(${block}), 62, '0'))`;
const ZERO = "0x0000000000000000000000000000000000000000";
/** A rarity's offer in the drop's token (rarity 1..5), as the sample games set them. */
const offerOf = (rarity: string) =>
  `div(tokens_per_mint * (ARRAY[${DEFAULT_OFFER_BPS.join(", ")}]::numeric[])[${rarity}], 10000)`;
/** `ceil(a / b)` of positive numerics. */
const ceilDiv = (a: string, b: string) => `div((${a}) + (${b}) - 1, ${b})`;

/** The factory of the generated games (lowercase): the volume is a creation contract's history. */
function factoryOf(role: ClassicRole): string {
  if (!role.factory) throw new Error("the classic volume needs a deployment with a DropFactory");
  return role.factory.address.toLowerCase();
}

/**
 * Loads the classic volume into a migrated database whose classic tables are empty: the scope's
 * head (every generated block applied), the drops and tokens it discovered, games, packs, open
 * batches and logs.
 */
export async function loadClassicVolume(
  ctx: ClassicVolumeContext,
  role: ClassicRole,
  volume: ClassicVolume,
): Promise<void> {
  const { scope } = role;
  const chainId = role.deployment.chainId;
  const factory = factoryOf(role);
  const games = Math.max(3, volume.games);
  const trades = Math.max(games, volume.activity - Math.round(ACTIVITY_PER_PACK * volume.packs));
  const wallets = Math.max(10, volume.wallets);
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 1000);
  await ctx.db.withConnection(async (c) => {
    await c.query("SET work_mem = '256MB'");
    await c.query(`SET timezone = 'UTC'`);
    const anchor = (await c.query<{ now: Date }>("SELECT date_trunc('second', now()) AS now")).rows[0]!.now;
    const END = CLASSIC_VOLUME_LAST_BLOCK;
    const time = (block: string) =>
      `($anchor::timestamptz - make_interval(secs => (${END} - (${block})) * 2))`;
    // Games: sizes, mint sizes, the offsets of their packs, mints and trades in the global numbering;
    // the nominal price of a pack, the curve's virtual ETH that puts `tokensPerMint` tokens at that
    // price, a trade's ETH and its tokens at that price.
    await c.query("DROP TABLE IF EXISTS scale_games");
    await c.query(
      `CREATE TEMP TABLE scale_games AS
       WITH weights AS (SELECT g, power(g, -0.8) AS w FROM generate_series(1, $1::int) AS g),
       sized AS (
         SELECT g, greatest(1, round($2::bigint * w / sum(w) OVER ()))::bigint AS packs,
                greatest(1, round($3::bigint * w / sum(w) OVER ()))::bigint AS trades
         FROM weights
       ), batched AS (SELECT g, packs, trades, 1 + g % 10 AS batch_size FROM sized)
       SELECT g, packs, trades, batch_size, (packs + batch_size - 1) / batch_size AS batches,
              coalesce(sum(packs) OVER w, 0)::bigint AS pack_base,
              coalesce(sum((packs + batch_size - 1) / batch_size) OVER w, 0)::bigint AS batch_base,
              coalesce(sum(trades) OVER w, 0)::bigint AS trade_base,
              ${START_BLOCK} + floor(${SPAN_BLOCKS} * 0.5 * (g - 1) / $1::int)::bigint AS created_block,
              g % 7 = 3 AS graduates, g % 13 = 5 AS paused,
              CASE WHEN g % 50 = 7 THEN 18446744073709551617 ELSE 1 END::numeric AS first_token_id,
              (1000000000000000 * (1 + g % 20))::numeric AS price,
              ${TOKENS_PER_MINT}::numeric AS tokens_per_mint,
              div(1000000000000000 * (1 + g % 20) * ${VIRTUAL_TOKENS}::numeric, ${TOKENS_PER_MINT}) AS virtual_eth,
              ${VIRTUAL_TOKENS}::numeric AS virtual_tokens,
              (1000000000000000 * (1 + g % 50))::numeric AS trade_eth,
              div(1000000000000000 * (1 + g % 50) * ${TOKENS_PER_MINT}::numeric, 1000000000000000 * (1 + g % 20)) AS trade_tokens,
              '0xd0' || lpad(to_hex(g), 38, '0') AS drop_address,
              '0xe0' || lpad(to_hex(g), 38, '0') AS token_address,
              ${wallet(`1 + (g * 7919) % $4::int`)} AS creator
       FROM batched WINDOW w AS (ORDER BY g ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)`,
      [games, volume.packs, trades, wallets],
    );
    await c.query(
      `ALTER TABLE scale_games ADD COLUMN graduation_block bigint, ADD COLUMN total_batches bigint, ADD COLUMN total_packs bigint`,
    );
    await c.query(
      `UPDATE scale_games SET graduation_block = CASE WHEN graduates
         THEN created_block + floor((${END} - 5 - created_block) * 0.9)::bigint END,
         total_batches = (SELECT sum(batches) FROM scale_games), total_packs = (SELECT sum(packs) FROM scale_games)`,
    );
    const sizes = (
      await c.query<{ g: number; packs: string }>("SELECT g, packs::text FROM scale_games ORDER BY g")
    ).rows;
    const G = games;
    // Transaction ids: creations g, graduations G + g, pauses 2G + g, then per mint (the mint, its
    // open batch's randomness callback, the opening), per pack (sale, transfer), per trade.
    const batchTx = (kind: number) => `(3 * ${G} + 3 * (k - 1) + ${kind})`;
    const packTx = (kind: number) => `(3 * ${G} + 3 * total_batches + 2 * (n - 1) + ${kind})`;
    const tradeTx = `(3 * ${G} + 3 * total_batches + 2 * total_packs + trade_base + j)`;
    const logIndex = (tx: string, local: string) => `((${tx}) * 16 + ${local})::int`;
    const event = (block: string, index: string, tx: string, address: string, name: string, args: string) =>
      `SELECT $scope, ${block}, ${index}, ${chainId}, ${blockHash(block)}, ${time(block)}, ${txHash(tx)}, ${address}, '${name}', ${args}`;
    const types: Record<string, string> = {
      scope: "text",
      anchor: "timestamptz",
      g1: "int",
      g2: "int",
      wallets: "int",
    };
    /** Runs `sql` with its `$scope`, `$anchor`, `$wallets`, `$g1`, `$g2` as parameters. */
    const run = async (sql: string, values: { g1?: number; g2?: number } = {}) => {
      const bound: Record<string, unknown> = { scope, anchor, wallets, ...values };
      const list: unknown[] = [];
      const text = sql.replace(/\$(scope|anchor|wallets|g1|g2)\b/g, (_, name: string) => {
        list.push(bound[name]);
        return `$${list.length}::${types[name]}`;
      });
      return c.query(text, list);
    };

    await run(
      `INSERT INTO indexer_heads (scope, chain_id, genesis_hash, next_block, block_hash, revision, observed_head, observed_at)
       VALUES ($scope, ${chainId}, '${role.deployment.genesisHash}', ${END + 1}, ${blockHash(String(END))}, 1, ${END + 1}, $anchor)
       ON CONFLICT (scope) DO UPDATE SET next_block = EXCLUDED.next_block, block_hash = EXCLUDED.block_hash,
         observed_head = EXCLUDED.observed_head, observed_at = EXCLUDED.observed_at`,
    );
    await run(
      `INSERT INTO indexer_contracts (scope, address, kind, parent, block_number)
       SELECT $scope, drop_address, 'drop', NULL, created_block FROM scale_games
       UNION ALL SELECT $scope, token_address, 'token', drop_address, created_block FROM scale_games`,
    );

    // What each game's packs moved on its token, before and after its graduation (mints buy tokens
    // with ETH, `sellForEth` sells offers for ETH), and its pack counts: the games' rows and the
    // graduations read them once every pack is written.
    await c.query("DROP TABLE IF EXISTS scale_sums");
    await c.query(
      `CREATE TEMP TABLE scale_sums (g int PRIMARY KEY, mint_eth_pre numeric, mint_packs_pre bigint,
         mint_eth_post numeric, mint_packs_post bigint, sell_eth_pre numeric, sell_tokens_pre numeric,
         sell_eth_post numeric, sell_tokens_post numeric, spent numeric, opened bigint, burned bigint,
         mint_block bigint, opened_block bigint, burn_block bigint)`,
    );
    await c.query("DROP TABLE IF EXISTS scale_rarities");
    await c.query(
      "CREATE TEMP TABLE scale_rarities (n bigint PRIMARY KEY, rarity smallint, token_seed numeric, random_value numeric)",
    );

    // Packs and their logs, a group of games (about 100,000 packs) per statement, with the
    // classic_packs triggers off (a superuser's `session_replication_role`): one GROUP BY per summary
    // afterwards (classic_summaries_rebuild) is far cheaper than the triggers' work per statement.
    // Without the privilege the triggers keep the summaries as the rows arrive, only slower.
    const triggersOff = await c.query("SET session_replication_role = replica").then(
      () => true,
      () => false,
    );
    const groups: Array<[number, number]> = [];
    let first = 1;
    let inGroup = 0;
    for (const { g, packs } of sizes) {
      inGroup += Number(packs);
      if (inGroup >= 100_000 || g === G) {
        groups.push([first, g]);
        first = g + 1;
        inGroup = 0;
      }
    }
    let loaded = 0;
    for (const [g1, g2] of groups) {
      // The group's packs: their mint (k, pos), opening (one open batch per mint, numbered per drop in
      // the order of the openings), the batch's random number, sale and transfer.
      await c.query("DROP TABLE IF EXISTS scale_p");
      await run(
        `CREATE TEMP TABLE scale_p AS
         SELECT x.*, CASE WHEN x.opened THEN dense_rank() OVER (PARTITION BY x.g, x.opened ORDER BY x.opened_block, x.k) ELSE 0 END AS open_batch
         FROM (
           SELECT gm.g, gm.drop_address, gm.token_address, gm.price, gm.tokens_per_mint, gm.first_token_id,
                  gm.graduation_block, gm.total_batches, gm.total_packs, gm.first_token_id + i - 1 AS token_id,
                  gm.pack_base + i AS n, gm.batch_base + (i - 1) / gm.batch_size + 1 AS k,
                  (i - 1) % gm.batch_size AS pos, b.*, q.*, r.*, s.*
           FROM scale_games gm
           CROSS JOIN LATERAL generate_series(1::bigint, gm.packs) AS i
           CROSS JOIN LATERAL (
             SELECT gm.created_block + 1
                      + floor((${END} - 21 - gm.created_block) * (((i - 1) / gm.batch_size + 1) - 0.5) / gm.batches)::bigint AS mint_block,
                    1 + floor($wallets * power(${u("gm.batch_base + (i - 1) / gm.batch_size + 1", 1)}, 3))::bigint AS minter,
                    ${u("gm.batch_base + (i - 1) / gm.batch_size + 1", 2)} >= 0.02 AS fulfilled,
                    ${u("gm.batch_base + (i - 1) / gm.batch_size + 1", 3)} < 0.7 AS opens,
                    ${u("gm.batch_base + (i - 1) / gm.batch_size + 1", 4)} AS open_at,
                    least(gm.batch_size, gm.packs - ((i - 1) / gm.batch_size) * gm.batch_size) AS amount,
                    '0x' || md5('scale-random-a-' || (gm.batch_base + (i - 1) / gm.batch_size + 1))
                         || md5('scale-random-b-' || (gm.batch_base + (i - 1) / gm.batch_size + 1)) AS random_number
           ) b
           CROSS JOIN LATERAL (
             SELECT b.opens AND ${u("gm.pack_base + i", 5)} < 0.8 AS opened,
                    b.mint_block + 1 + floor((${END} - 16 - b.mint_block) * power(b.open_at, 2))::bigint AS opened_block,
                    -- The mint's payment: about the nominal price a pack, its packs each carrying their share.
                    gm.price * b.amount + (gm.batch_base + (i - 1) / gm.batch_size + 1) % b.amount AS paid
           ) q
           CROSS JOIN LATERAL (
             SELECT q.opened_block + 1 + (gm.batch_base + (i - 1) / gm.batch_size + 1) % 4 AS rarity_block,
                    q.opened AND b.fulfilled AND ${u("gm.pack_base + i", 6)} < 0.35 AS burned,
                    NOT q.opened AND ${u("gm.pack_base + i", 8)} < 0.3 AS transferred,
                    div(q.paid, b.amount) + CASE WHEN (i - 1) % gm.batch_size < mod(q.paid, b.amount) THEN 1 ELSE 0 END AS acquired_price
           ) r
           CROSS JOIN LATERAL (
             SELECT r.rarity_block + 1 + floor((${END} - 8 - r.rarity_block) * ${u("gm.pack_base + i", 7)})::bigint AS burn_block,
                    r.burned AND ${u("gm.pack_base + i", 14)} < 0.3 AS for_eth,
                    b.mint_block + 1 + floor((${END} - 8 - b.mint_block) * ${u("gm.pack_base + i", 9)})::bigint AS transfer_block,
                    1 + floor($wallets * ${u("gm.pack_base + i", 10)})::bigint AS recipient
           ) s
           WHERE gm.g BETWEEN $g1 AND $g2
         ) x`,
        { g1, g2 },
      );
      // The rarities of the opened packs whose batch got its random number, as the drop derives them.
      const opened = (
        await c.query<{ n: string; token_id: string; random_number: string }>(
          "SELECT n::text AS n, token_id::text AS token_id, random_number FROM scale_p WHERE opened AND fulfilled",
        )
      ).rows;
      const draws = {
        n: [] as string[],
        rarity: [] as number[],
        seed: [] as string[],
        value: [] as string[],
      };
      for (const pack of opened) {
        const draw = deriveRarity(
          hexToBigInt(pack.random_number as Hex),
          BigInt(pack.token_id),
          DEFAULT_ODDS_BPS,
        );
        draws.n.push(pack.n);
        draws.rarity.push(draw.rarity);
        draws.seed.push(draw.tokenSeed.toString());
        draws.value.push(draw.randomValue.toString());
      }
      await c.query("TRUNCATE scale_rarities");
      await c.query(
        `INSERT INTO scale_rarities SELECT * FROM unnest($1::bigint[], $2::smallint[], $3::numeric[], $4::numeric[])`,
        [draws.n, draws.rarity, draws.seed, draws.value],
      );
      await run(
        `WITH p AS MATERIALIZED (
           SELECT sp.*, coalesce(d.rarity, 0) AS rarity, d.token_seed, d.random_value, d.rarity IS NOT NULL AS assigned,
                  CASE WHEN sp.burned THEN ${offerOf("d.rarity")} END AS offer,
                  CASE WHEN sp.for_eth THEN div(${offerOf("d.rarity")} * sp.price, sp.tokens_per_mint) END AS eth_out
           FROM scale_p sp LEFT JOIN scale_rarities d ON d.n = sp.n
         ), packs AS (
           INSERT INTO classic_packs (scope, chain_id, contract_address, token_id, owner, status, rarity, batch_id,
             token_seed, random_value, acquired_price, reward_amount, mint_tx, mint_block, mint_time,
             rarity_tx, rarity_block, rarity_time, opened_tx, opened_block, opened_time, burn_tx, burn_block, burn_time,
             updated_block, updated_at)
           SELECT $scope, ${chainId}, drop_address, token_id, ${wallet("CASE WHEN transferred THEN recipient ELSE minter END")},
             CASE WHEN burned THEN 'burned' WHEN assigned THEN 'rarity_assigned' WHEN opened THEN 'opened' ELSE 'minted' END, rarity, open_batch,
             token_seed, random_value, acquired_price, offer,
             ${txHash(batchTx(1))}, mint_block, ${time("mint_block")},
             CASE WHEN assigned THEN ${txHash(batchTx(2))} END, CASE WHEN assigned THEN rarity_block END,
             CASE WHEN assigned THEN ${time("rarity_block")} END,
             CASE WHEN opened THEN ${txHash(batchTx(3))} END, CASE WHEN opened THEN opened_block END,
             CASE WHEN opened THEN ${time("opened_block")} END,
             CASE WHEN burned THEN ${txHash(packTx(1))} END, CASE WHEN burned THEN burn_block END,
             CASE WHEN burned THEN ${time("burn_block")} END,
             u.block, ${time("u.block")}
           FROM p CROSS JOIN LATERAL (SELECT CASE WHEN burned THEN burn_block WHEN assigned THEN rarity_block
             WHEN opened THEN opened_block WHEN transferred THEN transfer_block ELSE mint_block END AS block) u
           RETURNING 1
         ), batches AS (
           INSERT INTO classic_open_batches (scope, chain_id, drop_address, batch_id, token_ids, random_number,
             opened_tx, updated_block, updated_at)
           SELECT $scope, ${chainId}, drop_address, open_batch, token_ids, CASE WHEN fulfilled THEN random_number END,
             ${txHash(batchTx(3))}, u.block, ${time("u.block")}
           FROM (SELECT k, drop_address, open_batch, fulfilled, random_number, opened_block, rarity_block,
                        jsonb_agg(token_id::text ORDER BY token_id) AS token_ids
                 FROM p WHERE opened GROUP BY k, drop_address, open_batch, fulfilled, random_number, opened_block, rarity_block) o
           CROSS JOIN LATERAL (SELECT CASE WHEN fulfilled THEN rarity_block ELSE opened_block END AS block) u
           RETURNING 1
         ), sums AS (
           INSERT INTO scale_sums
           SELECT g,
             coalesce(sum(acquired_price) FILTER (WHERE pre), 0), count(*) FILTER (WHERE pre),
             coalesce(sum(acquired_price) FILTER (WHERE NOT pre), 0), count(*) FILTER (WHERE NOT pre),
             coalesce(sum(eth_out) FILTER (WHERE for_eth AND sold_pre), 0), coalesce(sum(offer) FILTER (WHERE for_eth AND sold_pre), 0),
             coalesce(sum(eth_out) FILTER (WHERE for_eth AND NOT sold_pre), 0), coalesce(sum(offer) FILTER (WHERE for_eth AND NOT sold_pre), 0),
             sum(acquired_price), count(*) FILTER (WHERE opened), count(*) FILTER (WHERE burned),
             max(mint_block), max(opened_block) FILTER (WHERE opened), max(burn_block) FILTER (WHERE burned)
           FROM p CROSS JOIN LATERAL (SELECT graduation_block IS NULL OR mint_block < graduation_block AS pre,
             graduation_block IS NULL OR burn_block < graduation_block AS sold_pre) w
           GROUP BY g
           RETURNING 1
         ), mint_purchases AS (
           INSERT INTO chain_events (scope, block_number, log_index, chain_id, block_hash, block_time, transaction_hash, address, event, args)
           ${event("mint_block", logIndex(batchTx(1), "0"), batchTx(1), "token_address", "TokensPurchased", `jsonb_build_object('buyer', drop_address, 'amount', (tokens_per_mint * amount)::text, 'ethPaid', paid::text)`)}
           FROM p WHERE pos = 0 RETURNING 1
         ), mint_transfers AS (
           INSERT INTO chain_events (scope, block_number, log_index, chain_id, block_hash, block_time, transaction_hash, address, event, args)
           ${event("mint_block", logIndex(batchTx(1), "1 + pos"), batchTx(1), "drop_address", "Transfer", `jsonb_build_object('from', '${ZERO}', 'to', ${wallet("minter")}, 'tokenId', token_id::text)`)}
           FROM p RETURNING 1
         ), minted AS (
           INSERT INTO chain_events (scope, block_number, log_index, chain_id, block_hash, block_time, transaction_hash, address, event, args)
           ${event("mint_block", logIndex(batchTx(1), "1 + amount"), batchTx(1), "drop_address", "BoosterDropsMinted", `jsonb_build_object('minter', ${wallet("minter")}, 'amount', amount::text, 'startTokenId', token_id::text, 'endTokenId', (token_id + amount - 1)::text)`)}
           FROM p WHERE pos = 0 RETURNING 1
         ), openings AS (
           INSERT INTO chain_events (scope, block_number, log_index, chain_id, block_hash, block_time, transaction_hash, address, event, args)
           ${event("opened_block", logIndex(batchTx(3), "0"), batchTx(3), "drop_address", "BoosterDropOpened", `jsonb_build_object('from', ${wallet("minter")}, 'tokenIds', to_jsonb(token_ids), 'batchId', open_batch::text)`)}
           FROM (SELECT k, total_batches, drop_address, minter, open_batch, opened_block,
                        array_agg(token_id::text ORDER BY token_id) AS token_ids
                 FROM p WHERE opened GROUP BY k, total_batches, drop_address, minter, open_batch, opened_block) o
           RETURNING 1
         ), rarities AS (
           INSERT INTO chain_events (scope, block_number, log_index, chain_id, block_hash, block_time, transaction_hash, address, event, args)
           ${event("rarity_block", logIndex(batchTx(2), "0"), batchTx(2), "drop_address", "RarityAssigned", `jsonb_build_object('batchId', open_batch::text, 'randomNumber', random_number)`)}
           FROM (SELECT DISTINCT k, total_batches, drop_address, open_batch, rarity_block, random_number
                 FROM p WHERE opened AND fulfilled) o
           RETURNING 1
         ), holder_transfers AS (
           INSERT INTO chain_events (scope, block_number, log_index, chain_id, block_hash, block_time, transaction_hash, address, event, args)
           ${event("transfer_block", logIndex(packTx(2), "0"), packTx(2), "drop_address", "Transfer", `jsonb_build_object('from', ${wallet("minter")}, 'to', ${wallet("recipient")}, 'tokenId', token_id::text)`)}
           FROM p WHERE transferred RETURNING 1
         ), burns AS (
           INSERT INTO chain_events (scope, block_number, log_index, chain_id, block_hash, block_time, transaction_hash, address, event, args)
           ${event("burn_block", logIndex(packTx(1), "0"), packTx(1), "drop_address", "Transfer", `jsonb_build_object('from', ${wallet("minter")}, 'to', '${ZERO}', 'tokenId', token_id::text)`)}
           FROM p WHERE burned
           UNION ALL
           ${event("burn_block", logIndex(packTx(1), "1"), packTx(1), "token_address", "TokensSold", `jsonb_build_object('seller', drop_address, 'recipient', ${wallet("minter")}, 'amount', offer::text, 'ethReceived', eth_out::text)`)}
           FROM p WHERE for_eth
           UNION ALL
           ${event("burn_block", logIndex(packTx(1), "2"), packTx(1), "drop_address", "BoosterDropSold", `jsonb_build_object('burner', ${wallet("minter")}, 'tokenId', token_id::text, 'rarity', rarity, 'offerAmount', offer::text)`)}
           FROM p WHERE burned
           RETURNING 1
         )
         SELECT (SELECT count(*) FROM packs) AS packs`,
      );
      loaded += sizes
        .filter(({ g }) => g >= g1 && g <= g2)
        .reduce((sum, { packs }) => sum + Number(packs), 0);
      ctx.log(`classic: ${loaded.toLocaleString("en-US")} packs and their logs (${seconds()} s)`);
    }
    await c.query("DROP TABLE scale_p");
    await c.query("DROP TABLE scale_rarities");

    if (triggersOff) {
      await c.query("SET session_replication_role = DEFAULT");
      await c.query("SELECT classic_summaries_rebuild()");
      ctx.log(`classic: summaries rebuilt (${seconds()} s)`);
    }

    // Each game's token at the end: the curve (the trades in closed form, every fourth a sale of half a
    // buy's tokens for half its ETH; the mints and `sellForEth` sales before graduation), the pool
    // seeded by graduation with the curve's reserve (and tokens that leave room for the later mints)
    // and moved by the later mints and sales, and the pack price `getMintPrice(1)` there.
    await c.query("DROP TABLE IF EXISTS scale_tokens");
    await c.query(
      `CREATE TEMP TABLE scale_tokens AS
       SELECT gm.g, c.curve_eth, c.curve_tokens, t.graduation_tokens, pl.pool_eth, pl.pool_tokens,
              CASE WHEN gm.graduates
                THEN ${ceilDiv("pl.pool_eth * gm.tokens_per_mint", "pl.pool_tokens - gm.tokens_per_mint")}
                ELSE ${ceilDiv("(gm.virtual_eth + c.curve_eth) * gm.tokens_per_mint", "gm.virtual_tokens - c.curve_tokens - gm.tokens_per_mint")}
              END AS pack_price
       FROM scale_games gm JOIN scale_sums s ON s.g = gm.g
       CROSS JOIN LATERAL (
         SELECT gm.trade_eth * (gm.trades - gm.trades / 4) - div(gm.trade_eth, 2) * (gm.trades / 4)
                  + s.mint_eth_pre - s.sell_eth_pre AS curve_eth,
                gm.trade_tokens * (gm.trades - gm.trades / 4) - div(gm.trade_tokens, 2) * (gm.trades / 4)
                  + s.mint_packs_pre * gm.tokens_per_mint - s.sell_tokens_pre AS curve_tokens
       ) c
       CROSS JOIN LATERAL (
         SELECT CASE WHEN gm.graduates
           THEN div(c.curve_eth * gm.tokens_per_mint, gm.price) + (gm.packs + 1) * gm.tokens_per_mint END AS graduation_tokens
       ) t
       CROSS JOIN LATERAL (
         SELECT CASE WHEN gm.graduates THEN c.curve_eth + s.mint_eth_post - s.sell_eth_post END AS pool_eth,
                CASE WHEN gm.graduates
                  THEN t.graduation_tokens + s.sell_tokens_post - s.mint_packs_post * gm.tokens_per_mint END AS pool_tokens
       ) pl`,
    );

    // Curve trades, graduations, pauses, creations.
    const trader = wallet(`1 + floor($wallets * power(${u("trade_base + j", 20)}, 2))::bigint`);
    const tradeBlock = `(created_block + 1 + floor((coalesce(graduation_block, ${END} - 5) - created_block - 2) * (j - 0.5) / trades)::bigint)`;
    await run(
      `INSERT INTO chain_events (scope, block_number, log_index, chain_id, block_hash, block_time, transaction_hash, address, event, args)
       ${event(tradeBlock, logIndex(tradeTx, "0"), tradeTx, "token_address", "TokensPurchased", `jsonb_build_object('buyer', ${trader}, 'amount', trade_tokens::text, 'ethPaid', trade_eth::text)`)}
       FROM scale_games CROSS JOIN LATERAL generate_series(1::bigint, trades) AS j WHERE j % 4 <> 0
       UNION ALL
       ${event(tradeBlock, logIndex(tradeTx, "0"), tradeTx, "token_address", "TokensSold", `jsonb_build_object('seller', ${trader}, 'recipient', ${trader}, 'amount', div(trade_tokens, 2)::text, 'ethReceived', div(trade_eth, 2)::text)`)}
       FROM scale_games CROSS JOIN LATERAL generate_series(1::bigint, trades) AS j WHERE j % 4 = 0
       UNION ALL
       ${event("graduation_block", logIndex(`${G} + g`, "0"), `${G} + g`, "token_address", "MarketGraduated", `jsonb_build_object('nftAddress', drop_address, 'tokenAddress', token_address, 'pool', '0xb0' || lpad(to_hex(g), 38, '0'), 'ethAmount', curve_eth::text, 'tokenAmount', graduation_tokens::text, 'positionId', '0')`)}
       FROM scale_games JOIN scale_tokens USING (g) WHERE graduates
       UNION ALL
       ${event(`${END - 2}`, logIndex(`2 * ${G} + g`, "0"), `2 * ${G} + g`, "drop_address", "ActiveChanged", `jsonb_build_object('active', false)`)}
       FROM scale_games WHERE paused
       UNION ALL
       ${event(
         "created_block",
         logIndex("g", "0"),
         "g",
         `'${factory}'`,
         "DropCreated",
         `jsonb_build_object('creator', creator, 'dropContract', drop_address, 'tokenContract', token_address,
           'nftName', 'Scale Game ' || g, 'nftSymbol', 'SG' || g, 'tokenName', 'Scale Tickets ' || g, 'tokenSymbol', 'ST' || g)`,
       )}
       FROM scale_games
       UNION ALL
       ${event(
         "created_block",
         logIndex("g", "1"),
         "g",
         `'${factory}'`,
         "DropConfigured",
         `jsonb_build_object('gameId', g::text, 'dropContract', drop_address, 'tokenContract', token_address, 'owner', creator,
           'config', jsonb_build_object('baseURI', 'https://scale.example/scale-game-' || g || '-' || g || '/',
             'tokensPerMint', tokens_per_mint::text, 'commonOffer', ${offerOf("1")}::text, 'rareOffer', ${offerOf("2")}::text,
             'epicOffer', ${offerOf("3")}::text, 'legendaryOffer', ${offerOf("4")}::text, 'mythicOffer', ${offerOf("5")}::text),
           'extensions', jsonb_build_object('merkleRoot', '${ZERO_ROOT}', 'oddsBps', '${JSON.stringify(DEFAULT_ODDS_BPS)}'::jsonb,
             'firstTokenId', first_token_id::text, 'virtualEth', virtual_eth::text, 'virtualTokens', virtual_tokens::text,
             'graduationEth', '${GRADUATION_ETH}'))`,
       )}
       FROM scale_games`,
    );
    ctx.log(`classic: ${trades.toLocaleString("en-US")} curve trades (${seconds()} s)`);

    // Games as their last log left them.
    await run(
      `INSERT INTO classic_games (scope, chain_id, drop_address, game_id, token_address, creator, nft_name, nft_symbol,
         token_name, token_symbol, price_per_pack, merkle_root, eth_reserve, tokens_sold, is_graduated, pool_address,
         packs_minted, created_block, created_tx, created_at, updated_block, updated_at,
         offers, odds_bps, virtual_eth, virtual_tokens, graduation_eth, first_token_id, is_active, pool_eth, pool_tokens,
         packs_opened, packs_burned, mint_volume, slug, tokens_per_mint, mint_payment_tx, mint_payment_wei)
       SELECT $scope, ${chainId}, gm.drop_address, gm.g, gm.token_address, gm.creator, 'Scale Game ' || gm.g, 'SG' || gm.g,
         'Scale Tickets ' || gm.g, 'ST' || gm.g, t.pack_price, '${ZERO_ROOT}',
         CASE WHEN gm.graduates THEN 0 ELSE t.curve_eth END, t.curve_tokens, gm.graduates,
         CASE WHEN gm.graduates THEN '0xb0' || lpad(to_hex(gm.g), 38, '0') END,
         gm.packs, gm.created_block, ${txHash("gm.g")}, ${time("gm.created_block")}, u.block, ${time("u.block")},
         jsonb_build_array(${[1, 2, 3, 4, 5].map((rarity) => `${offerOf(String(rarity)).replace("tokens_per_mint", "gm.tokens_per_mint")}::text`).join(", ")}),
         '${JSON.stringify(DEFAULT_ODDS_BPS)}', gm.virtual_eth, gm.virtual_tokens, ${GRADUATION_ETH},
         gm.first_token_id, NOT gm.paused, t.pool_eth, t.pool_tokens,
         s.opened, s.burned, s.spent, 'scale-game-' || gm.g || '-' || gm.g, gm.tokens_per_mint, NULL, NULL
       FROM scale_games gm JOIN scale_sums s ON s.g = gm.g JOIN scale_tokens t ON t.g = gm.g
       CROSS JOIN LATERAL (SELECT greatest(gm.created_block, s.mint_block, s.opened_block, s.burn_block,
         gm.graduation_block, CASE WHEN gm.paused THEN ${END - 2} END,
         gm.created_block + 1 + floor((coalesce(gm.graduation_block, ${END} - 5) - gm.created_block - 2) * (gm.trades - 0.5) / gm.trades)::bigint) AS block) u`,
    );
    // The operator's featured games: one in a hundred, the largest first.
    await run(
      `INSERT INTO classic_game_flags (chain_id, contract_address, is_featured, is_verified, updated_at)
       SELECT ${chainId}, drop_address, true, true, $anchor FROM scale_games WHERE g % 100 = 1`,
    );
    await c.query("DROP TABLE scale_games");
    await c.query("DROP TABLE scale_sums");
    await c.query("DROP TABLE scale_tokens");
    ctx.log(`classic: games written`);
  });
  ctx.log(`classic: loaded in ${seconds()} s`);
}

type Row = Record<string, unknown>;

/** A stored argument as the decoder hands it to handlers: uints wider than 48 bits as bigint, tuples as objects. */
function decodedValue(parameter: AbiParameter, value: unknown): unknown {
  const array = /^(.*)\[\d*\]$/.exec(parameter.type);
  if (array) {
    const element = { ...parameter, type: array[1]! } as AbiParameter;
    return (value as unknown[]).map((item) => decodedValue(element, item));
  }
  if (parameter.type === "tuple") {
    const components = (parameter as { components: readonly AbiParameter[] }).components;
    const record = value as Row;
    return Object.fromEntries(components.map((part) => [part.name!, decodedValue(part, record[part.name!])]));
  }
  const uint = /^u?int(\d*)$/.exec(parameter.type);
  if (uint && Number(uint[1] || 256) > 48) return BigInt(value as string);
  return value;
}

function decodedArgs(abi: Abi, event: string, args: Row): Row {
  // An overloaded event (the token's two `TokensSold`) is the one whose arguments the log has.
  const item = abi.find(
    (entry) =>
      entry.type === "event" && entry.name === event && entry.inputs.every((input) => input.name! in args),
  );
  if (item?.type !== "event") throw new Error(`no ${event} with these arguments in the ABI`);
  return Object.fromEntries(
    item.inputs.map((input) => [input.name!, decodedValue(input, args[input.name!])]),
  );
}

/** `rows` equal `expected`, row by row, or an error naming the first difference. */
function expectSameRows(what: string, rows: Row[], expected: Row[]): void {
  // Values in column order (the names of a computed column may differ).
  const text = (row: Row | undefined) =>
    JSON.stringify(row && Object.values(row), (_, value) =>
      value instanceof Date ? value.toISOString() : value,
    );
  if (rows.length !== expected.length)
    throw new Error(`${what}: ${rows.length} rows where the projection writes ${expected.length}`);
  for (let i = 0; i < rows.length; i++) {
    if (text(rows[i]) !== text(expected[i]))
      throw new Error(
        `${what} differs from the projection's:\n  loaded    ${text(rows[i])}\n  projected ${text(expected[i])}`,
      );
  }
}

/**
 * The views of the games' drops and tokens that the classic projection's `prefetch` reads, answered
 * from their rows: the generated history has no contracts to ask.
 */
function viewsOfGames(games: Row[]): ReadContract {
  const views = new Map<string, Record<string, unknown>>();
  for (const game of games) {
    const offers = (game["offers"] as string[]).map((offer) => BigInt(offer));
    views.set(String(game["drop_address"]), {
      name: game["nft_name"],
      symbol: game["nft_symbol"],
      boosterTokenAddress: game["token_address"],
      tokensPerMint: BigInt(String(game["tokens_per_mint"])),
      COMMON_OFFER: offers[0],
      RARE_OFFER: offers[1],
      EPIC_OFFER: offers[2],
      LEGENDARY_OFFER: offers[3],
      MYTHIC_OFFER: offers[4],
      owner: game["creator"],
    });
    views.set(String(game["token_address"]), { name: game["token_name"], symbol: game["token_symbol"] });
  }
  const read = async ({ address, functionName }: { address: string; functionName: string }) => {
    const value = views.get(address.toLowerCase())?.[functionName];
    if (value === undefined) throw new Error(`no view ${functionName} of ${address} in the volume`);
    return value;
  };
  return read as unknown as ReadContract;
}

/** The factory's logs of the sample's games (`$3`: their drops): their creation and configuration. */
const FACTORY_LOGS_OF_SAMPLE = `(event IN ('DropCreated', 'DropConfigured') AND args->>'dropContract' = ANY($3::text[]))`;

/** The rows of a sample of games and everything their packs count in. */
async function sampleRows(c: SqlConnection, chainId: number, drops: string[], tokens: string[]) {
  const q = async (sql: string, params: unknown[] = []) => (await c.query<Row>(sql, params)).rows;
  const owners = `SELECT DISTINCT owner FROM classic_packs WHERE chain_id = $1 AND contract_address = ANY($2::text[])`;
  const hours = `SELECT DISTINCT date_trunc('hour', mint_time, 'UTC') FROM classic_packs WHERE chain_id = $1 AND contract_address = ANY($2::text[])`;
  return {
    games: await q(
      "SELECT * FROM classic_games WHERE chain_id = $1 AND drop_address = ANY($2::text[]) ORDER BY drop_address",
      [chainId, drops],
    ),
    packs: await q(
      "SELECT * FROM classic_packs WHERE chain_id = $1 AND contract_address = ANY($2::text[]) ORDER BY contract_address, token_id",
      [chainId, drops],
    ),
    openBatches: await q(
      "SELECT * FROM classic_open_batches WHERE chain_id = $1 AND drop_address = ANY($2::text[]) ORDER BY drop_address, batch_id",
      [chainId, drops],
    ),
    events: await q(
      `SELECT * FROM chain_events WHERE chain_id = $1 AND (address = ANY($2::text[]) OR ${FACTORY_LOGS_OF_SAMPLE})
       ORDER BY block_number, log_index`,
      [chainId, [...drops, ...tokens], drops],
    ),
    packCounts: await q(
      "SELECT * FROM classic_pack_counts WHERE chain_id = $1 AND contract_address = ANY($2::text[]) ORDER BY contract_address, status, rarity",
      [chainId, drops],
    ),
    gameCollectors: await q(
      "SELECT * FROM classic_game_collectors WHERE chain_id = $1 AND contract_address = ANY($2::text[]) ORDER BY contract_address, owner",
      [chainId, drops],
    ),
    gameHolders: await q(
      "SELECT * FROM classic_game_holders WHERE chain_id = $1 AND contract_address = ANY($2::text[]) ORDER BY contract_address",
      [chainId, drops],
    ),
    collectors: await q(
      `SELECT * FROM classic_collectors WHERE chain_id = $1 AND owner IN (${owners}) ORDER BY owner`,
      [chainId, drops],
    ),
    platform: await q("SELECT * FROM classic_platform_totals WHERE chain_id = $1", [chainId]),
    mintHours: await q(
      `SELECT * FROM classic_mint_hours WHERE chain_id = $1 AND hour IN (${hours}) ORDER BY hour`,
      [chainId, drops],
    ),
  };
}

/**
 * Throws unless a sample of the loaded games is what the classic projection writes from their
 * logs: the smallest open game, the smallest graduated one and the smallest paused one are
 * re-projected in a transaction that is rolled back (their rows, open batches and logs deleted, their stored
 * logs applied through the projection's own batch store, so the classic_packs triggers keep the
 * summaries as they do for the indexer), and every row they touch must come back identical. The
 * loaded summaries must also equal a GROUP BY over the loaded packs.
 */
export async function checkClassicSampleVolume(ctx: ClassicVolumeContext, role: ClassicRole): Promise<void> {
  const chainId = role.deployment.chainId;
  const projection = classicProjection(role);
  const factory = factoryOf(role);
  await ctx.db.withConnection(async (c) => {
    const sample = (
      await c.query<{ drop_address: string; token_address: string }>(
        `SELECT DISTINCT drop_address, token_address FROM (
           (SELECT drop_address, token_address FROM classic_games WHERE chain_id = $1 AND is_active AND NOT is_graduated ORDER BY game_id DESC LIMIT 1)
           UNION ALL (SELECT drop_address, token_address FROM classic_games WHERE chain_id = $1 AND is_graduated ORDER BY game_id DESC LIMIT 1)
           UNION ALL (SELECT drop_address, token_address FROM classic_games WHERE chain_id = $1 AND NOT is_active ORDER BY game_id DESC LIMIT 1)
         ) s ORDER BY drop_address`,
        [chainId],
      )
    ).rows;
    if (sample.length === 0) throw new Error("no classic game loaded");
    const drops = sample.map((game) => game.drop_address);
    const tokens = sample.map((game) => game.token_address);
    const loaded = await sampleRows(c, chainId, drops, tokens);

    // The summaries as a GROUP BY over the packs: per game and per owner of the sample, and whole.
    const both = async (what: string, kept: string, recomputed: string) =>
      expectSameRows(
        `${what} (kept against recomputed from the packs)`,
        (await c.query<Row>(kept, [chainId, drops])).rows,
        (await c.query<Row>(recomputed, [chainId, drops])).rows,
      );
    const ofSample = "chain_id = $1 AND contract_address = ANY($2::text[])";
    const counts = `count(*) FILTER (WHERE status = 'minted') AS minted, count(*) FILTER (WHERE status = 'rarity_assigned') AS assigned,
      count(*) FILTER (WHERE status = 'opened') AS opened, count(*) FILTER (WHERE status = 'burned') AS burned, sum(acquired_price) AS spent`;
    await both(
      "classic_pack_counts",
      `SELECT contract_address, status, rarity, packs::text FROM classic_pack_counts WHERE ${ofSample} ORDER BY 1, 2, 3`,
      `SELECT contract_address, status, rarity, count(*)::text FROM classic_packs WHERE ${ofSample} GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    );
    await both(
      "classic_game_collectors",
      `SELECT contract_address, owner, minted::text, assigned::text, opened::text, burned::text, spent::text
       FROM classic_game_collectors WHERE ${ofSample} ORDER BY 1, 2`,
      `SELECT contract_address, owner, ${counts.replaceAll(" AS ", "::text AS ")} FROM classic_packs WHERE ${ofSample} GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    await both(
      "classic_game_holders",
      `SELECT contract_address, holders::text, collectors::text FROM classic_game_holders WHERE ${ofSample} ORDER BY 1`,
      `SELECT contract_address, (count(DISTINCT owner) FILTER (WHERE status <> 'burned'))::text AS holders,
         count(DISTINCT owner)::text AS collectors
       FROM classic_packs WHERE ${ofSample} GROUP BY 1 ORDER BY 1`,
    );
    const owners = `SELECT owner FROM classic_packs WHERE ${ofSample}`;
    await both(
      "classic_collectors",
      `SELECT owner, minted::text, assigned::text, opened::text, burned::text, spent::text
       FROM classic_collectors WHERE chain_id = $1 AND owner IN (${owners}) ORDER BY 1`,
      `SELECT owner, ${counts.replaceAll(" AS ", "::text AS ")} FROM classic_packs
       WHERE chain_id = $1 AND owner IN (${owners}) GROUP BY 1 ORDER BY 1`,
    );
    for (const summary of ["classic_platform_totals", "classic_mint_hours"]) {
      const rows = (view: string) =>
        `SELECT key::text, value::text FROM ${view} WHERE summary = '${summary}' AND (key->>0)::int = $1 AND $2::text[] IS NOT NULL ORDER BY key::text`;
      await both(summary, rows("classic_summaries_kept"), rows("classic_summaries_recomputed"));
    }

    // The sample re-projected from its logs, in a transaction that is rolled back.
    const kinds = new Map<string, { address: string; kind: string; parent?: string }>([
      [factory, { address: factory, kind: "factory" }],
      ...sample.flatMap(
        (game): Array<[string, { address: string; kind: string; parent?: string }]> => [
          [game.drop_address, { address: game.drop_address, kind: "drop" }],
          [game.token_address, { address: game.token_address, kind: "token", parent: game.drop_address }],
        ],
      ),
    ]);
    const logs: DecodedLog[] = loaded.events.map((row) => {
      const contract = kinds.get(String(row["address"]))!;
      const log: IndexedLog = {
        address: String(row["address"]),
        event: String(row["event"]),
        args: decodedArgs(projection.abis[contract.kind]!, String(row["event"]), row["args"] as Row),
        blockNumber: BigInt(String(row["block_number"])),
        blockHash: String(row["block_hash"]),
        blockTime: row["block_time"] as Date,
        logIndex: Number(row["log_index"]),
        transactionHash: String(row["transaction_hash"]),
      };
      return { log, contract };
    });
    await c.exec("BEGIN");
    try {
      await c.query(
        `DELETE FROM chain_events WHERE chain_id = $1 AND (address = ANY($2::text[]) OR ${FACTORY_LOGS_OF_SAMPLE})`,
        [chainId, [...drops, ...tokens], drops],
      );
      await c.query(
        "DELETE FROM classic_open_batches WHERE chain_id = $1 AND drop_address = ANY($2::text[])",
        [chainId, drops],
      );
      await c.query("DELETE FROM classic_packs WHERE chain_id = $1 AND contract_address = ANY($2::text[])", [
        chainId,
        drops,
      ]);
      await c.query("DELETE FROM classic_games WHERE chain_id = $1 AND drop_address = ANY($2::text[])", [
        chainId,
        drops,
      ]);
      // What the indexer reads from the drops' views before applying their logs, from the loaded rows.
      await projection.prefetch?.(logs, viewsOfGames(loaded.games));
      const store = new BatchStore(c, role.scope, null, await readColumns(c));
      await createLogApplier(projection)(store, logs);
      await store.flush();
      const projected = await sampleRows(c, chainId, drops, tokens);
      for (const table of Object.keys(loaded) as Array<keyof typeof loaded>)
        expectSameRows(`${table} of the sample`, loaded[table], projected[table]);
    } finally {
      await c.exec("ROLLBACK");
    }
    ctx.log(
      `classic: sample of ${sample.length} games (${loaded.packs.length} packs, ${loaded.events.length} logs) equals its re-projection`,
    );
  });
}
