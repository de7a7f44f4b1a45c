// Seeds the prediction-feed benchmarks: a chain-4663 deployment whose factory scope the server serves
// without indexing (no chain), its head (with the block's time) and PREDICT_MARKETS markets in every
// state. GET /predict/v9/markets and GET /predict/v9/quote read the seeded rows.
import type { ChainDeployment } from "../packages/chain/src/index.ts";
import { chainRoles } from "../packages/server/src/chains/index.ts";
import type { Database } from "../packages/server/src/db/index.ts";

const FACTORY = "0x000000000000000000000000000000000000fac9";
/** Market 199: open, fee 2%, pools moved off 50/50; the quote benchmark prices it. */
export const BENCH_PREDICT_MARKET = "0x00000000000000000000000000000000000e00c7";
const MARKETS = 200;

export async function seedPredict(db: Database): Promise<ChainDeployment> {
  const deployment: ChainDeployment = {
    chainId: 4663,
    // Never called: the benchmark server does not index.
    rpcUrl: "http://127.0.0.1:9",
    finalityDepth: 2,
    genesisHash: `0x${"00".repeat(32)}`,
    contracts: { MarketFactory: { address: FACTORY, startBlock: 1 } },
    runtimes: [],
  };
  const scope = chainRoles([deployment]).predict!.scope;
  await db.withConnection(async (connection) => {
    await connection.query(
      `INSERT INTO indexer_heads (scope, chain_id, genesis_hash, next_block, block_hash, block_time, revision,
         observed_head, observed_at)
       VALUES ($1, 4663, $2, 100001, $3, now(), 42, 100002, now())`,
      [scope, deployment.genesisHash, `0x${"cd".repeat(32)}`],
    );
    // Market n at 0x…e0<n in hex>; every 10th resolved, every 7th paused, the rest open, pools off balance.
    await connection.query(
      `INSERT INTO predict_markets (scope, chain_id, address, market_id, creator, question, seed, fee_bps, yes_pool,
         no_pool, backing, volume, status, outcome, paused, fees_accrued, liquidity_collected, trade_count,
         created_block, created_at, updated_block, updated_at, resolved_block, resolved_at)
       SELECT $1, 4663, '0x' || lpad(to_hex(917504 + n), 40, '0'), n, '0x' || lpad(to_hex(n % 13 + 1), 40, '0'),
         'Will bench market ' || n || ' resolve YES before block ' || (100000 + n * 10) || '?',
         1000000000000000000 * (1 + n % 5), (n % 5) * 50,
         1000000000000000000 * (1 + n % 5) - 12345678901234567 * (n % 9),
         1000000000000000000 * (1 + n % 5) + 23456789012345678 * (n % 9),
         1000000000000000000 * (1 + n % 5) + 11111111111111111 * (n % 9),
         34567890123456789 * (n % 9), CASE WHEN n % 10 = 0 THEN 'resolved' WHEN n % 7 = 0 THEN 'paused' ELSE 'active' END,
         CASE WHEN n % 10 = 0 THEN (n / 10) % 2 END, n % 7 = 0, 345678901234567 * (n % 9), false, 2 * (n % 9),
         n * 10, now() - make_interval(mins => $2 - n), n * 10 + 5, now() - make_interval(mins => $2 - n),
         CASE WHEN n % 10 = 0 THEN n * 10 + 5 END, CASE WHEN n % 10 = 0 THEN now() - make_interval(mins => $2 - n) END
       FROM generate_series(1, $2::int) AS n`,
      [scope, MARKETS],
    );
  });
  return deployment;
}

/**
 * Keeps the seeded head fresh the way a running indexer on a quiet chain does: it observes the chain
 * and the newest finalized block keeps a current time, so the feed's freshness gate lets the benchmark
 * through however long it runs. No revision moves (no new block), so cached answers stay valid.
 */
export function keepPredictHeadFresh(db: Database, deployment: ChainDeployment, everyMs = 5_000): () => void {
  const scope = chainRoles([deployment]).predict!.scope;
  const timer = setInterval(() => {
    void db
      .withConnection((connection) =>
        connection.query(
          "UPDATE indexer_heads SET observed_at = now(), block_time = now() WHERE scope = $1",
          [scope],
        ),
      )
      .catch(() => {});
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
