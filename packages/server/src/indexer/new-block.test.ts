import { claimDropsAbi, waitForSuccess } from "@mkt/chain";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setupDatabase, type TestDatabase } from "../_test/database.ts";
import { setupDevChain, type TestChain } from "../_test/dev-chain.ts";
import { createLogger } from "../logging/index.ts";
import { systemClock } from "../quotas/limiter.ts";
import { createScopeIndexer, type ScopeIndexer } from "./engine.ts";
import { scopesOf } from "./projections.ts";

describe("a caught-up scope told of a new block", () => {
  let database: TestDatabase;
  let chain: TestChain;
  let indexer: ScopeIndexer;
  const nextBlock = async () => {
    const { rows } = await database.db.withConnection((connection) =>
      connection.query<{ next_block: string }>("SELECT next_block FROM indexer_heads WHERE scope = $1", [
        indexer.scope.id,
      ]),
    );
    return rows[0] === undefined ? undefined : BigInt(rows[0].next_block);
  };

  beforeAll(async () => {
    database = await setupDatabase();
    chain = await setupDevChain(8453);
    const scope = scopesOf([chain.deployment]).find((candidate) => candidate.generation === "runtime")!;
    indexer = createScopeIndexer({
      db: database.db,
      logger: createLogger({ level: "silent" }),
      clock: systemClock,
      scope,
      rpcUrl: chain.deployment.rpcUrl,
      // Far longer than the test waits: only the announcement can make it index in time.
      pollIntervalMs: 600_000,
    });
  }, 120_000);
  afterAll(async () => {
    await indexer?.stop();
    await chain?.close();
    await database?.close();
  });

  it("indexes it at once instead of at the end of its poll interval", async () => {
    const latest = await chain.clients.publicClient.getBlockNumber();
    indexer.start();
    await vi.waitFor(async () => expect(await nextBlock()).toBe(latest + 1n), { timeout: 20_000 });

    const claims = chain.deployment.runtimes.at(-1)!.contracts["ClaimDrops"]!;
    const hash = await chain.clients.wallet(2).writeContract({
      address: claims,
      abi: claimDropsAbi,
      functionName: "createDrop",
      args: [77n, 0n, 10n],
    });
    const { blockNumber } = await waitForSuccess(chain.clients.publicClient, hash);
    indexer.newBlock();
    await vi.waitFor(async () => expect(await nextBlock()).toBe(blockNumber + 1n), { timeout: 20_000 });
    const { rows } = await database.db.withConnection((connection) =>
      connection.query("SELECT drop_id, created_tx FROM market_drops WHERE drop_id = '77'"),
    );
    expect(rows).toEqual([{ drop_id: "77", created_tx: hash }]);
  }, 120_000);
});
