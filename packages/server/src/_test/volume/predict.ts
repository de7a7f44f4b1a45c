// The prediction feed at volume: a deterministic chain history of markets, trades and positions
// (markets × 10,000, trades × 2,000,000, positions × 200,000 at scale 1), written through the
// prediction projection's own write path (predictProjection → the indexer's log applier →
// BatchStore), and a sample check that replays sampled markets into a scratch database.
//
// The history obeys the contracts: every buy and sell is priced with the market maker's integer math
// (@mkt/chain predict-math), sells never exceed the seller's shares, redemptions pay the winning
// shares, liquidity is collected only after resolution. Each market's events come from a generator
// seeded by its id, so any market can be regenerated alone.
import {
  type ChainDeployment,
  createPrng,
  probabilityBps,
  quoteBuy,
  quoteSell,
  SIDE,
  type Side,
} from "@mkt/chain";
import { predictPointsOf } from "@mkt/protocol";
import { chainRoles, type FactoryRole } from "../../chains/index.ts";
import { type Database, migrate, openDatabase, type SqlConnection } from "../../db/index.ts";
import { createLogApplier } from "../../indexer/apply.ts";
import { inTransaction } from "../../indexer/head-store.ts";
import { predictProjection } from "../../indexer/predict-projection.ts";
import type { IndexedLog } from "../../indexer/projection.ts";
import { byChainOrder, type DecodedLog } from "../../indexer/range-reader.ts";
import { BatchStore, type Column, readColumns } from "../../indexer/store.ts";

/** The volumes at scale 1 (issue targets of the prediction feed); traders is how many addresses share the positions. */
export const PREDICT_VOLUME_BASE = {
  markets: 10_000,
  trades: 2_000_000,
  positions: 200_000,
  traders: 50_000,
} as const;

export interface PredictVolume {
  markets: number;
  /** Rows of predict_trades: buys, sells and redemptions. */
  trades: number;
  /** Rows of predict_positions: distinct (market, trader) pairs. */
  positions: number;
  /** Addresses the positions are spread over (some hold hundreds, most a few). */
  traders: number;
}

/** The volumes at a scale, each `count(base)`. */
export function predictVolumeAt(count: (base: number) => number): PredictVolume {
  return {
    markets: count(PREDICT_VOLUME_BASE.markets),
    trades: count(PREDICT_VOLUME_BASE.trades),
    positions: count(PREDICT_VOLUME_BASE.positions),
    traders: count(PREDICT_VOLUME_BASE.traders),
  };
}

const FACTORY = "0x00000000000000000000000000000000005ca1e5";
const OPERATOR = "0x000000000000000000000000000000000000095e";

/**
 * The chain-4663 deployment the loaded rows belong to: a fixed factory, so a kept database is served
 * again by the same deployment. Its RPC is never called (the server serves it without indexing).
 */
export const PREDICT_VOLUME_DEPLOYMENT: ChainDeployment = {
  chainId: 4663,
  rpcUrl: "http://127.0.0.1:9",
  finalityDepth: 2,
  genesisHash: `0x${"00".repeat(32)}`,
  contracts: { MarketFactory: { address: FACTORY, startBlock: 1 } },
  runtimes: [],
};
const ROLE: FactoryRole = chainRoles([PREDICT_VOLUME_DEPLOYMENT]).predict!;
export const PREDICT_VOLUME_SCOPE = ROLE.scope;

/** Blocks between two markets' creations; blocks are 2 s apart from EPOCH. */
const CREATE_EVERY = 10;
const EPOCH_MS = Date.UTC(2026, 0, 1);
const blockTime = (block: number) => new Date(EPOCH_MS + block * 2_000);
const hex = (value: number, width: number) => value.toString(16).padStart(width, "0");

export const volumeMarketAddress = (n: number) => `0x${hex(0xe0, 2)}${hex(n, 38)}`;
export const volumeTraderAddress = (i: number) => `0xa1${hex(i, 38)}`;
const creatorAddress = (n: number) => `0xc0${hex((n % 13) + 1, 38)}`;

/** A market's part of the history: how many trades and traders, and what happens to it. */
export interface MarketPlan {
  /** The factory's id, 1-based; the market's log index in every block it logs in. */
  n: number;
  trades: number;
  positions: number;
  createdBlock: number;
  /** Every 10th market is resolved (outcome alternating), every 20th also has its liquidity collected. */
  outcome: Side | null;
  collected: boolean;
  /** Paused at the end (every 7th unresolved market). */
  paused: boolean;
  /** Paused and unpaused half-way (every 11th market). */
  pauseCycle: boolean;
}

export interface VolumePlan {
  volume: PredictVolume;
  markets: MarketPlan[];
  /** The last block of the history: the head's block. */
  headBlock: number;
}

/** Splits `total` over `weights` exactly (cumulative rounding), each share at least `min`. */
function split(total: number, weights: number[], min: number): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const shares: number[] = [];
  let cumulative = 0;
  let given = 0;
  for (const weight of weights) {
    cumulative += weight;
    const upTo = Math.round((total * cumulative) / sum);
    shares.push(Math.max(min, upTo - given));
    given = Math.max(given, upTo);
  }
  return shares;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * Which market gets how much: popularity is Zipf-like (exponent 0.8) over a fixed permutation of the
 * ids, so the busiest market holds about 3% of all trades and hot markets are spread over the id range.
 */
export function planPredictVolume(volume: PredictVolume): VolumePlan {
  const count = volume.markets;
  const stride = [7919, 7907, 7901, 7883, 7877].find((prime) => gcd(prime, count) === 1) ?? 1;
  const weights = Array.from({ length: count }, (_, i) => {
    const rank = ((i * stride + 17) % count) + 1;
    return rank ** -0.8;
  });
  const trades = split(volume.trades, weights, 1);
  const positions = split(volume.positions, weights, 1);
  const markets: MarketPlan[] = [];
  let headBlock = 0;
  for (let i = 0; i < count; i++) {
    const n = i + 1;
    const outcome = n % 10 === 0 ? (((n / 10) % 2) as Side) : null;
    const plan: MarketPlan = {
      n,
      trades: trades[i]!,
      // Each trader's first trade opens its position: no more positions than trades, and a market
      // being resolved keeps trades for the redemptions of about 40% of its traders.
      positions: Math.min(positions[i]!, volume.traders, Math.max(1, Math.floor(trades[i]! / 2))),
      createdBlock: n * CREATE_EVERY,
      outcome,
      collected: outcome !== null && n % 20 === 0,
      paused: outcome === null && n % 7 === 0,
      pauseCycle: n % 11 === 0,
    };
    markets.push(plan);
    headBlock = Math.max(headBlock, plan.createdBlock + eventsOf(plan) + 1);
  }
  return { volume, markets, headBlock: headBlock + CREATE_EVERY };
}

/** The market's own logs (every log but its creation). */
const eventsOf = (plan: MarketPlan) =>
  plan.trades +
  (plan.pauseCycle ? 2 : 0) +
  (plan.paused ? 1 : 0) +
  (plan.outcome !== null ? 1 : 0) +
  (plan.collected ? 1 : 0);

const WEI_PER_MILLI = 1_000_000_000_000_000n;

/** One logged event of a market: its name and arguments as viem decodes them. */
interface Event {
  event: string;
  args: Record<string, unknown>;
}

/**
 * The events of market `plan.n` after its creation, in chain order: each trader's first buy opens
 * its position, later trades are buys of either side or sells of held shares, priced by the
 * contract's math on the pool as it stands; then the pause, the resolution, redemptions of the
 * winning shares and the creator's collection, as the plan says.
 */
function marketEvents(plan: MarketPlan, volume: PredictVolume): Event[] {
  const next = createPrng(plan.n * 2_654_435_761).next;
  const seed = WEI_PER_MILLI * 1000n * BigInt(1 + (plan.n % 5));
  const feeBps = BigInt((plan.n % 5) * 50);
  let pool = { yes: seed, no: seed };
  let fees = 0n;
  const events: Event[] = [];
  // The traders, distinct, skewed towards low indexes: a few addresses trade in hundreds of markets.
  const traders: number[] = [];
  const chosen = new Set<number>();
  while (traders.length < plan.positions) {
    const index = Math.floor(volume.traders * next() ** 2);
    if (chosen.has(index)) continue;
    chosen.add(index);
    traders.push(index);
  }
  const held = traders.map(() => [0n, 0n]);
  const redeemTarget = plan.outcome === null ? 0 : Math.floor(plan.positions * 0.4);
  let introduced = 0;

  const buy = (who: number, side: Side, wethIn: bigint) => {
    const quote = quoteBuy(pool, side, wethIn, feeBps);
    pool = quote.poolAfter;
    fees += quote.fee;
    held[who]![side] = held[who]![side]! + quote.sharesOut;
    events.push({
      event: "Buy",
      args: {
        buyer: volumeTraderAddress(traders[who]!),
        side,
        wethIn,
        fee: quote.fee,
        sharesOut: quote.sharesOut,
      },
    });
  };
  const amount = () => WEI_PER_MILLI * BigInt(1 + Math.floor(next() * 300));
  /** A sale of part of `who`'s shares of `side`; false when the pool cannot take it. */
  const sell = (who: number, side: Side): boolean => {
    const shares = held[who]![side]!;
    if (shares === 0n) return false;
    const price = probabilityBps(pool, side);
    const wethOut = (shares * price * BigInt(1 + Math.floor(next() * 50))) / 1_000_000n;
    if (wethOut === 0n) return false;
    let quote: ReturnType<typeof quoteSell>;
    try {
      quote = quoteSell(pool, side, wethOut, feeBps);
    } catch {
      return false;
    }
    if (quote.sharesIn > shares) return false;
    pool = quote.poolAfter;
    fees += quote.fee;
    held[who]![side] = shares - quote.sharesIn;
    events.push({
      event: "Sell",
      args: {
        seller: volumeTraderAddress(traders[who]!),
        side,
        wethOut,
        fee: quote.fee,
        sharesIn: quote.sharesIn,
      },
    });
    return true;
  };
  const trade = (slotsLeft: number) => {
    const newcomersLeft = plan.positions - introduced;
    if (newcomersLeft > 0 && (newcomersLeft >= slotsLeft || next() < newcomersLeft / slotsLeft)) {
      buy(introduced++, next() < 0.5 ? SIDE.yes : SIDE.no, amount());
      return;
    }
    const who = Math.floor(next() * introduced);
    const side = next() < 0.5 ? SIDE.yes : SIDE.no;
    if (next() < 0.3 && sell(who, side)) return;
    buy(who, side, amount());
  };

  const tradingSlots = plan.trades - redeemTarget;
  for (let slot = 0; slot < tradingSlots; slot++) {
    if (plan.pauseCycle && slot === Math.floor(tradingSlots / 2)) {
      events.push({ event: "Paused", args: { operator: OPERATOR } });
      events.push({ event: "Unpaused", args: { operator: OPERATOR } });
    }
    trade(tradingSlots - slot);
  }
  if (plan.paused) events.push({ event: "Paused", args: { operator: OPERATOR } });
  if (plan.outcome !== null) {
    const outcome = plan.outcome;
    // Too few winners for the redemptions planned: losers buy the winning side first (each buy is
    // one trade, each new winner one redemption), so the market still logs exactly `trades` trades.
    const winners = () => held.filter((shares) => shares[outcome]! > 0n).length;
    const deficit = redeemTarget - winners();
    const extra = deficit > 0 ? Math.ceil(deficit / 2) : 0;
    for (let who = 0, bought = 0; bought < extra; who++) {
      if (held[who]![outcome]! > 0n) continue;
      buy(who, outcome, amount());
      bought++;
    }
    events.push({ event: "Resolved", args: { outcome, operator: OPERATOR } });
    let redeemed = 0;
    for (let who = 0; who < held.length && redeemed < redeemTarget - extra; who++) {
      const payout = held[who]![outcome]!;
      if (payout === 0n) continue;
      held[who]![outcome] = 0n;
      events.push({
        event: "Redeemed",
        args: { owner: volumeTraderAddress(traders[who]!), shares: payout, payout },
      });
      redeemed++;
    }
    if (plan.collected) {
      const shares = outcome === SIDE.yes ? pool.yes : pool.no;
      events.push({ event: "LiquidityCollected", args: { creator: creatorAddress(plan.n), shares, fees } });
      pool = { yes: 0n, no: 0n };
      fees = 0n;
    }
  }
  return events;
}

const FACTORY_CONTRACT = { address: FACTORY, kind: "factory" } as const;

/** The decoded logs of market `plan.n`, its creation by the factory first, with their blocks. */
export function volumeMarketLogs(plan: MarketPlan, volume: VolumePlan): DecodedLog[] {
  const address = volumeMarketAddress(plan.n);
  const logAt = (block: number, event: string, logAddress: string, args: Record<string, unknown>) => {
    const log: IndexedLog = {
      address: logAddress,
      event,
      args,
      blockNumber: BigInt(block),
      blockHash: `0x${hex(block, 64)}`,
      blockTime: blockTime(block),
      logIndex: plan.n,
      transactionHash: `0x${hex(block, 48)}${hex(plan.n, 16)}`,
    };
    return log;
  };
  const seed = WEI_PER_MILLI * 1000n * BigInt(1 + (plan.n % 5));
  const logs: DecodedLog[] = [
    {
      contract: FACTORY_CONTRACT,
      log: logAt(plan.createdBlock, "MarketCreated", FACTORY, {
        market: address,
        marketId: BigInt(plan.n),
        creator: creatorAddress(plan.n),
        question: `Will scale market ${plan.n} resolve YES before block ${plan.createdBlock + 100_000}?`,
        seed,
        feeBps: BigInt((plan.n % 5) * 50),
      }),
    },
  ];
  const events = marketEvents(plan, volume.volume);
  // The market's logs spread evenly from the block after its creation to the head, one per block.
  const span = volume.headBlock - plan.createdBlock - 1;
  const contract = { address, kind: "market" };
  events.forEach(({ event, args }, k) => {
    const block = plan.createdBlock + 1 + Math.floor((k * span) / events.length);
    logs.push({ contract, log: logAt(block, event, address, args) });
  });
  return logs;
}

/**
 * Applies the logs of these markets through the prediction projection's write path, in one
 * transaction: the indexer's log applier (preloads in bulk, handlers in chain order) on a BatchStore,
 * then its flush, and the markets recorded as the scope's contracts, as the indexer records what a
 * factory created. The stream's wakeup triggers (live events, migration 0027) are off inside the
 * transaction: a history load is no news for open streams, and the rows they would write are not
 * projection rows.
 */
async function applyMarkets(
  connection: SqlConnection,
  columns: Map<string, Column[]>,
  plan: VolumePlan,
  markets: MarketPlan[],
  { triggers }: { triggers: boolean },
): Promise<number> {
  const logs = markets.flatMap((market) => volumeMarketLogs(market, plan)).sort(byChainOrder);
  if (!triggers) {
    await connection.exec(
      "ALTER TABLE predict_markets DISABLE TRIGGER USER; ALTER TABLE predict_trades DISABLE TRIGGER USER",
    );
  }
  const store = new BatchStore(connection, ROLE.scope, null, columns);
  await createLogApplier(predictProjection(ROLE))(store, logs);
  await store.flush();
  await connection.query(
    `INSERT INTO indexer_contracts (scope, address, kind, parent, block_number)
     SELECT $1, unnest($2::text[]), 'market', NULL, unnest($3::bigint[])`,
    [
      ROLE.scope,
      markets.map((market) => volumeMarketAddress(market.n)),
      markets.map((market) => market.createdBlock),
    ],
  );
  if (!triggers) {
    await connection.exec(
      "ALTER TABLE predict_markets ENABLE TRIGGER USER; ALTER TABLE predict_trades ENABLE TRIGGER USER",
    );
  }
  return logs.length;
}

/** The scope's head: every block of the history applied, the chain observed just above it, now. */
async function writeHead(connection: SqlConnection, plan: VolumePlan): Promise<void> {
  await connection.query(
    `INSERT INTO indexer_heads (scope, chain_id, genesis_hash, next_block, block_hash, block_time, revision,
       observed_head, observed_at)
     VALUES ($1, $2, $3, $4::bigint + 1, $5, now(), 1, $4::bigint + $6, now())`,
    [
      ROLE.scope,
      PREDICT_VOLUME_DEPLOYMENT.chainId,
      PREDICT_VOLUME_DEPLOYMENT.genesisHash,
      plan.headBlock,
      `0x${hex(plan.headBlock, 64)}`,
      PREDICT_VOLUME_DEPLOYMENT.finalityDepth,
    ],
  );
}

/** Logs applied per transaction (a market's logs never split). */
const LOGS_PER_BATCH = 50_000;

/**
 * Fills a migrated, empty database with the prediction feed's history at `volume`: markets, trades,
 * positions and the traders' sums, through the projection (see applyMarkets), then the scope's head
 * and fresh statistics. Markets are independent (a market's rows depend on its own logs; a trader's
 * sums are sums), so writing market after market gives the rows the indexer writes in chain order;
 * `checkPredictVolumeSample` shows it on a sample.
 */
export async function loadPredictVolume(
  db: Database,
  volume: PredictVolume,
  log: (line: string) => void = () => {},
): Promise<VolumePlan> {
  const plan = planPredictVolume(volume);
  const columns = await db.withConnection(readColumns);
  const started = Date.now();
  let batch: MarketPlan[] = [];
  let batchLogs = 0;
  let done = 0;
  let logs = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const markets = batch;
    batch = [];
    batchLogs = 0;
    logs += await inTransaction(db, (connection) =>
      applyMarkets(connection, columns, plan, markets, { triggers: false }),
    );
    done += markets.length;
    if (done === plan.markets.length || done % 1000 < markets.length) {
      log(
        `predict: ${done.toLocaleString("en-US")} of ${plan.markets.length.toLocaleString("en-US")} markets, ${logs.toLocaleString("en-US")} logs (${((Date.now() - started) / 1000).toFixed(0)} s)`,
      );
    }
  };
  for (const market of plan.markets) {
    batch.push(market);
    batchLogs += eventsOf(market) + 1;
    if (batchLogs >= LOGS_PER_BATCH) await flush();
  }
  await flush();
  await db.withConnection((connection) => writeHead(connection, plan));
  await analyzePredict(db);
  return plan;
}

/** Statistics (and the visibility map, for index-only scans) of the feed's tables after a bulk write. */
export async function analyzePredict(db: Database): Promise<void> {
  await db.withConnection((connection) =>
    connection.exec(
      "VACUUM (ANALYZE) predict_markets, predict_trades, predict_positions, predict_traders, indexer_heads",
    ),
  );
}

/** The sampled markets: the first and last, the busiest, resolved, collected, paused ones, and a spread. */
export function sampleMarkets(plan: VolumePlan, size = 24): MarketPlan[] {
  const markets = plan.markets;
  const busiest = markets.reduce((a, b) => (b.trades > a.trades ? b : a));
  const picks = new Map<number, MarketPlan>();
  const add = (market: MarketPlan | undefined) => market && picks.set(market.n, market);
  add(markets[0]);
  add(markets.at(-1));
  add(busiest);
  add(markets.find((market) => market.collected));
  add(markets.find((market) => market.outcome !== null && !market.collected));
  add(markets.find((market) => market.paused));
  add(markets.find((market) => market.pauseCycle));
  const next = createPrng(size).next;
  while (picks.size < Math.min(size, markets.length)) add(markets[Math.floor(next() * markets.length)]);
  return [...picks.values()];
}

/** Rows as canonical JSON text (jsonb sorts keys; timestamps in UTC), so two databases compare exactly. */
async function rowsAsText(db: Database, sql: string, params: unknown[]): Promise<string[]> {
  return inTransaction(db, async (connection) => {
    await connection.exec("SET LOCAL TIME ZONE 'UTC'");
    const { rows } = await connection.query<{ row: string }>(sql, params);
    return rows.map((row) => row.row);
  });
}

/**
 * Throws unless a sample of the loaded rows is what the prediction projection writes: the sampled
 * markets' logs are applied again, with the indexer's write path and its triggers on, to a scratch
 * database (in-memory PGlite), and their markets, trades, positions, non-trade logs and discovered
 * contracts must equal the loaded ones column for column. The sampled markets' traders' sums
 * (`predict_traders`) must equal the sums of their trades in the loaded database, and the loaded
 * volumes must be the planned ones.
 */
export async function checkPredictVolumeSample(db: Database, volume: PredictVolume): Promise<void> {
  const plan = planPredictVolume(volume);
  const sample = sampleMarkets(plan);
  const addresses = sample.map((market) => volumeMarketAddress(market.n));
  const scratch = await openDatabase({ kind: "pglite" });
  try {
    await migrate(scratch);
    const columns = await scratch.withConnection(readColumns);
    await inTransaction(scratch, (connection) =>
      applyMarkets(connection, columns, plan, sample, { triggers: true }),
    );
    const tables: Array<[string, string]> = [
      ["predict_markets", "t.chain_id = $1 AND t.address = ANY($2) ORDER BY t.address"],
      [
        "predict_trades",
        "t.chain_id = $1 AND t.market = ANY($2) ORDER BY t.market, t.block_number, t.log_index",
      ],
      ["predict_positions", "t.chain_id = $1 AND t.market = ANY($2) ORDER BY t.market, t.owner"],
      [
        "chain_events",
        "t.chain_id = $1 AND t.address = ANY($2) ORDER BY t.address, t.block_number, t.log_index",
      ],
      ["indexer_contracts", "$1 > 0 AND t.address = ANY($2) ORDER BY t.address"],
    ];
    for (const [table, where] of tables) {
      const sql = `SELECT to_jsonb(t)::text AS row FROM ${table} t WHERE ${where}`;
      const params = [PREDICT_VOLUME_DEPLOYMENT.chainId, addresses];
      const expected = await rowsAsText(scratch, sql, params);
      const loaded = await rowsAsText(db, sql, params);
      if (expected.length === 0) throw new Error(`predict sample: the projection wrote no ${table} row`);
      if (loaded.length !== expected.length) {
        throw new Error(
          `predict sample: ${table} has ${loaded.length} rows of the sampled markets, the projection writes ${expected.length}`,
        );
      }
      const differs = loaded.findIndex((row, i) => row !== expected[i]);
      if (differs >= 0) {
        throw new Error(
          `predict sample: ${table} row differs from what the projection writes:\n  loaded    ${loaded[differs]}\n  projection ${expected[differs]}`,
        );
      }
    }
  } finally {
    await scratch.close();
  }
  await expectTraderSums(db, sample);
  await expectVolumes(db, plan);
}

/** The sampled markets' traders: each one's kept sums equal the sums of its trades. */
async function expectTraderSums(db: Database, sample: MarketPlan[]): Promise<void> {
  const chainId = PREDICT_VOLUME_DEPLOYMENT.chainId;
  const { rows: owners } = await db.withConnection((connection) =>
    connection.query<{ owner: string }>(
      "SELECT DISTINCT owner FROM predict_positions WHERE chain_id = $1 AND market = ANY($2) ORDER BY owner LIMIT 200",
      [chainId, sample.map((market) => volumeMarketAddress(market.n))],
    ),
  );
  const traders = owners.map((row) => row.owner);
  const { rows } = await db.withConnection((connection) =>
    connection.query<{
      trader: string;
      kept: string | null;
      buy: string;
      sell: string;
      redeemed: string;
      n: number;
    }>(
      `SELECT s.trader, json_build_array(k.buy_weth::text, k.sell_weth::text, k.redeemed_weth::text, k.trades,
           k.points::text)::text AS kept,
         s.buy::text AS buy, s.sell::text AS sell, s.redeemed::text AS redeemed, s.n
       FROM (SELECT trader, coalesce(sum(weth) FILTER (WHERE kind = 'buy'), 0) AS buy,
               coalesce(sum(weth) FILTER (WHERE kind = 'sell'), 0) AS sell,
               coalesce(sum(weth) FILTER (WHERE kind = 'redeem'), 0) AS redeemed, count(*)::int AS n
             FROM predict_trades WHERE chain_id = $1 AND trader = ANY($2) GROUP BY trader) s
       LEFT JOIN predict_traders k ON k.chain_id = $1 AND k.trader = s.trader`,
      [chainId, traders],
    ),
  );
  if (rows.length !== traders.length) throw new Error("predict sample: a sampled trader has no trade");
  for (const row of rows) {
    const points = predictPointsOf({
      buyWeth: BigInt(row.buy),
      sellWeth: BigInt(row.sell),
      redeemedWeth: BigInt(row.redeemed),
    });
    const expected = JSON.stringify([row.buy, row.sell, row.redeemed, row.n, points.toString()]);
    if (row.kept?.replaceAll(" ", "") !== expected) {
      throw new Error(
        `predict sample: trader ${row.trader} keeps ${row.kept}, its trades sum to ${expected}`,
      );
    }
  }
}

/** The loaded volumes are the planned ones. */
async function expectVolumes(db: Database, plan: VolumePlan): Promise<void> {
  const { rows } = await db.withConnection((connection) =>
    connection.query<{ markets: number; trades: number; positions: number }>(
      `SELECT (SELECT count(*) FROM predict_markets WHERE scope = $1)::int AS markets,
         (SELECT count(*) FROM predict_trades WHERE scope = $1)::int AS trades,
         (SELECT count(*) FROM predict_positions WHERE scope = $1)::int AS positions`,
      [ROLE.scope],
    ),
  );
  const loaded = rows[0]!;
  const planned = {
    markets: plan.markets.length,
    trades: plan.markets.reduce((sum, market) => sum + market.trades, 0),
    positions: plan.markets.reduce((sum, market) => sum + market.positions, 0),
  };
  if (JSON.stringify(loaded) !== JSON.stringify(planned)) {
    throw new Error(`predict sample: loaded ${JSON.stringify(loaded)}, planned ${JSON.stringify(planned)}`);
  }
}
