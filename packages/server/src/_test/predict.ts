import type { ChainDeployment } from "@mkt/chain";
import { expect, vi } from "vitest";
import { chainRoles } from "../chains/index.ts";
import type { Database } from "../db/index.ts";
import { INDEXER_CHANNEL } from "../indexer/head-store.ts";
import { PREDICT_INDEXER_SOURCE } from "../predict/freshness.ts";
import { createManualClock, setupApp, type TestApp, type TestAppOptions } from "./app.ts";

/**
 * A prediction-chain deployment the test app follows without indexing (its
 * RPC is never called): tests write the projection's rows and the scope's
 * head by hand, and state every value they assert on.
 */
export const PREDICT_TEST_DEPLOYMENT: ChainDeployment = {
  chainId: 4663,
  rpcUrl: "http://127.0.0.1:9",
  finalityDepth: 2,
  genesisHash: `0x${"00".repeat(32)}`,
  contracts: { MarketFactory: { address: "0x00000000000000000000000000000000000fac70", startBlock: 1 } },
  runtimes: [],
};
export const PREDICT_TEST_SCOPE = chainRoles([PREDICT_TEST_DEPLOYMENT]).predict!.scope;
/** The head block's time; a test clock one second later keeps the projection fresh. */
export const PREDICT_HEAD_TIME = "2026-11-25T12:00:05.000Z";
export const PREDICT_HEAD_HASH = `0x${"ab".repeat(32)}`;

/**
 * Writes (or moves) the scope's head: blocks below `nextBlock` are final, the
 * chain was seen `finalityDepth` blocks above it at the head block's time.
 */
export function setPredictHead(
  db: Database,
  { nextBlock = 101n, hash = PREDICT_HEAD_HASH, time = PREDICT_HEAD_TIME } = {},
): Promise<unknown> {
  return db.withConnection((connection) =>
    connection.query(
      `INSERT INTO indexer_heads (scope, chain_id, next_block, block_hash, block_time, revision, observed_head,
         observed_at, updated_at)
       VALUES ($1, 4663, $2::bigint, $3, $4, 1, $2::bigint + 1, $4, $4)
       ON CONFLICT (scope) DO UPDATE SET next_block = EXCLUDED.next_block, block_hash = EXCLUDED.block_hash,
         block_time = EXCLUDED.block_time, observed_head = EXCLUDED.observed_head`,
      [PREDICT_TEST_SCOPE, nextBlock.toString(), hash, time],
    ),
  );
}

/** What the indexer does after a commit (NOTIFY with the scope); resolves once this replica heard it. */
export async function announcePredictCommit(t: TestApp): Promise<void> {
  const [counter] = t.app.services.revisions.counters([PREDICT_INDEXER_SOURCE]);
  const before = counter!.value;
  await t.db.notify(INDEXER_CHANNEL, PREDICT_TEST_SCOPE);
  await vi.waitFor(() => expect(counter!.value).toBeGreaterThan(before), { interval: 5, timeout: 10_000 });
}

/** `GET /predict/v9<url>` with the key (and more headers): status, headers and the parsed body. */
export async function predictGet(t: TestApp, key: string, url: string, headers: Record<string, string> = {}) {
  const response = await t.app.server.inject({
    method: "GET",
    url: `/predict/v9${url}`,
    headers: { "api-key": key, ...headers },
  });
  return { status: response.statusCode, headers: response.headers, body: response.json() as unknown };
}

/** `predictGet` that expects a 200 and answers its body. */
export async function predictOk<T>(t: TestApp, key: string, url: string): Promise<T> {
  const response = await predictGet(t, key, url);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as T;
}

/**
 * An app following PREDICT_TEST_DEPLOYMENT whose clock stands one second after
 * the head's block (so a projection at that head is fresh), and a key whose
 * budget no test exhausts.
 */
export async function setupPredictApp(
  options: Omit<TestAppOptions, "deployments" | "clock"> = {},
): Promise<{ t: TestApp; key: string }> {
  const t = await setupApp({
    ...options,
    deployments: [PREDICT_TEST_DEPLOYMENT],
    clock: createManualClock(Date.parse(PREDICT_HEAD_TIME) + 1_000),
  });
  return { t, key: (await t.createKey({ multiplier: 100 })).key };
}
