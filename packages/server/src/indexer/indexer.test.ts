import { spawn } from "node:child_process";
import { once } from "node:events";
import {
  boosterDropAbi,
  claimDropsAbi,
  DEV_ACCOUNT_ROLES,
  dropFactoryAbi,
  liveBoosterTokenAbi,
  marketAbi,
  SAMPLE_BIG_FIRST_TOKEN_ID,
  waitForSuccess,
  wethAbi,
} from "@mkt/chain";
import { type Address, createPublicClient, custom, numberToHex, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createLogCapture } from "../_test/app.ts";
import { postgresOnly, setupDatabase, type TestDatabase } from "../_test/database.ts";
import { setupDevChain, type TestChain } from "../_test/dev-chain.ts";
import { rebuildBoardSummaries } from "../_test/market.ts";
import { expectProjectionMatchesChain, snapshotProjection } from "../_test/projection-check.ts";
import type { Database } from "../db/index.ts";
import { createLogger } from "../logging/index.ts";
import { systemClock } from "../quotas/limiter.ts";
import { createScopeIndexer, type ScopeIndexer } from "./engine.ts";
import { scopesOf } from "./projections.ts";

const logs = createLogCapture();
const logger = createLogger({ level: "info", destination: logs.stream });

function indexersFor(
  db: Database,
  chain: TestChain,
  options: Partial<Parameters<typeof createScopeIndexer>[0]> = {},
): ScopeIndexer[] {
  return scopesOf([chain.deployment]).map((scope) =>
    createScopeIndexer({
      db,
      logger,
      clock: systemClock,
      scope,
      rpcUrl: chain.deployment.rpcUrl,
      initialRange: 7,
      ...options,
    }),
  );
}

const syncAll = async (indexers: ScopeIndexer[]) => {
  for (const indexer of indexers) await indexer.syncOnce();
};

describe("indexer on the classic and current-generation dev chain", () => {
  let chain: TestChain;
  let database: TestDatabase;
  let indexers: ScopeIndexer[];
  beforeAll(async () => {
    // A window wide enough that the reorg below is undone block by block.
    chain = await setupDevChain(8453, { finalityDepth: 64 });
    database = await setupDatabase();
    indexers = indexersFor(database.db, chain);
  }, 120_000);
  afterAll(async () => {
    for (const indexer of indexers) await indexer.stop();
    await database.close();
    await chain.close();
  });

  it("projects a claim sent to the runtime, with uint256 ids and quantities as exact strings", async () => {
    const runtime = chain.deployment.runtimes.at(-1)!;
    const claims = runtime.contracts["ClaimDrops"]!;
    const { publicClient } = chain.clients;
    // Account 2 is the market operator: the simulator never sends from it.
    const user = chain.clients.wallet(2);
    const dropId = 10n ** 77n + 12345n;
    const created = await user.writeContract({
      address: claims,
      abi: claimDropsAbi,
      functionName: "createDrop",
      args: [dropId, 0n, 10n ** 30n],
    });
    await waitForSuccess(publicClient, created);
    const claimTx = await user.writeContract({
      address: claims,
      abi: claimDropsAbi,
      functionName: "claim",
      args: [dropId, 3n],
    });
    await waitForSuccess(publicClient, claimTx);
    await syncAll(indexers);
    const { rows } = await database.db.withConnection((c) =>
      c.query("SELECT * FROM market_claims WHERE transaction_hash = $1", [claimTx]),
    );
    expect(rows).toEqual([
      expect.objectContaining({
        runtime_id: runtime.id,
        owner: user.account.address.toLowerCase(),
        drop_id: dropId.toString(),
        quantity: "3",
        total_claimed: "3",
      }),
    ]);
    // A claim is recorded once, in market_claims; the drop's creation, which no domain table records, in chain_events.
    const events = await database.db.withConnection((c) =>
      c.query<{ transaction_hash: string; event: string }>(
        "SELECT transaction_hash, event FROM chain_events WHERE transaction_hash = ANY($1::text[])",
        [[created, claimTx]],
      ),
    );
    expect(events.rows).toEqual([{ transaction_hash: created, event: "DropCreated" }]);
    const heads = await database.db.withConnection((c) =>
      c.query<{ scope: string; next_block: string; failure: string | null }>(
        "SELECT scope, next_block, failure FROM indexer_heads",
      ),
    );
    const latest = await publicClient.getBlockNumber();
    expect(heads.rows.length).toBe(indexers.length);
    for (const head of heads.rows) {
      expect(BigInt(head.next_block)).toBe(latest + 1n);
      expect(head.failure).toBeNull();
    }
    const drops = await database.db.withConnection((c) =>
      c.query("SELECT drop_id, claimed FROM market_drops WHERE drop_id = $1", [dropId.toString()]),
    );
    expect(drops.rows).toEqual([{ drop_id: dropId.toString(), claimed: "3" }]);
    await expectProjectionMatchesChain(database.db, chain);
  });

  it("re-applies one transaction's logs by hash, idempotently", async () => {
    const { rows } = await database.db.withConnection((c) =>
      c.query<{ transaction_hash: string; scope: string }>(
        "SELECT transaction_hash, scope FROM market_claims LIMIT 1",
      ),
    );
    const { transaction_hash: hash, scope } = rows[0]!;
    const indexer = indexers.find((candidate) => candidate.scope.id === scope)!;
    /** What a re-application of the transaction found and did. */
    const reapplyTransaction = async (txHash: `0x${string}`) => {
      const { applied, found, pending } = await indexer.recoverTransaction(txHash);
      return { applied, found, pending };
    };
    expect(await reapplyTransaction(hash as `0x${string}`)).toEqual({
      applied: 0,
      found: true,
      pending: false,
    });
    // As if the indexer had missed the transaction's logs: neither the claim nor what it added to
    // the board's summaries is there.
    await database.db.withConnection(async (c) => {
      await c.query("DELETE FROM chain_events WHERE transaction_hash = $1", [hash]);
      await c.query("DELETE FROM market_claims WHERE transaction_hash = $1", [hash]);
      await rebuildBoardSummaries(c);
    });
    expect(await reapplyTransaction(hash as `0x${string}`)).toMatchObject({
      applied: 1,
      found: true,
    });
    expect(await reapplyTransaction(hash as `0x${string}`)).toMatchObject({
      applied: 0,
      found: true,
    });
    const claims = await database.db.withConnection((c) =>
      c.query<{ n: number }>("SELECT count(*)::int AS n FROM market_claims WHERE transaction_hash = $1", [
        hash,
      ]),
    );
    expect(claims.rows[0]!.n).toBe(1);
    expect(await reapplyTransaction(`0x${"ab".repeat(32)}`)).toEqual({
      applied: 0,
      found: false,
      pending: false,
    });
  });

  it("follows games, packs and their lifecycle from simulated activity", async () => {
    const { publicClient } = chain.clients;
    const factory = chain.deployment.contracts["DropFactory"]!.address;
    const game = async (gameId: bigint) => {
      const [drop, token] = await publicClient.readContract({
        address: factory,
        abi: dropFactoryAbi,
        functionName: "games",
        args: [gameId],
      });
      return { drop, token };
    };
    // Graduation in one transaction with its TokensPurchased (that first), and a paused drop. The buy
    // takes one token more than 0.2 ETH buys, so the reserve passes the genesis game's 0.2 ETH target.
    const genesis = await game(1n);
    const tokens =
      (await publicClient.readContract({
        address: genesis.token,
        abi: liveBoosterTokenAbi,
        functionName: "getEthBuyQuote",
        args: [parseEther("0.2")],
      })) + 1n;
    const cost = await publicClient.readContract({
      address: genesis.token,
      abi: liveBoosterTokenAbi,
      functionName: "getTokenBuyQuote",
      args: [tokens],
    });
    const buyer = chain.clients.wallet(DEV_ACCOUNT_ROLES.firstUser);
    await waitForSuccess(
      publicClient,
      await buyer.writeContract({
        address: genesis.token,
        abi: liveBoosterTokenAbi,
        functionName: "buy",
        args: [tokens, buyer.account!.address],
        value: cost,
      }),
    );
    expect(
      await publicClient.readContract({
        address: genesis.token,
        abi: liveBoosterTokenAbi,
        functionName: "marketType",
      }),
    ).toBe(1);
    await waitForSuccess(
      publicClient,
      await chain.clients.wallet(DEV_ACCOUNT_ROLES.deployer).writeContract({
        address: (await game(2n)).drop,
        abi: boosterDropAbi,
        functionName: "setActive",
        args: [false],
      }),
    );
    await chain.simulate(60);
    await syncAll(indexers);
    const graduated = await database.db.withConnection((c) =>
      c.query<{ eth_reserve: string; pool_eth: string | null; is_active: boolean }>(
        "SELECT eth_reserve::text, pool_eth::text, is_active FROM classic_games WHERE drop_address = $1",
        [genesis.drop.toLowerCase()],
      ),
    );
    // The curve's reserve moved into the pool; the pool's reserve is what graduation seeded it with
    // (the graduating buy's cost) moved by the pool trades since, which is the ETH the pool holds.
    const pool = await publicClient.readContract({
      address: genesis.token,
      abi: liveBoosterTokenAbi,
      functionName: "poolAddress",
    });
    const [seeded] = await publicClient.getContractEvents({
      address: genesis.token,
      abi: liveBoosterTokenAbi,
      eventName: "MarketGraduated",
      fromBlock: 0n,
    });
    expect(seeded!.args.ethAmount).toBe(cost);
    const poolEth = await publicClient.getBalance({ address: pool });
    expect(graduated.rows).toEqual([{ eth_reserve: "0", pool_eth: poolEth.toString(), is_active: true }]);
    // The sample game whose pack ids start past 2^64 was minted by the simulator: ids kept exact.
    const deepDrop = (await game(3n)).drop.toLowerCase();
    const deep = await database.db.withConnection((c) =>
      c.query<{ token_id: string }>(
        "SELECT token_id::text FROM classic_packs WHERE contract_address = $1 ORDER BY token_id LIMIT 1",
        [deepDrop],
      ),
    );
    expect(deep.rows[0]?.token_id).toBe(SAMPLE_BIG_FIRST_TOKEN_ID.toString());
    const games = await database.db.withConnection((c) =>
      c.query<{ n: number }>("SELECT count(*)::int AS n FROM classic_games"),
    );
    expect(games.rows[0]!.n).toBeGreaterThan(0);
    const statuses = await database.db.withConnection((c) =>
      c.query<{ status: string; n: number }>(
        "SELECT status, count(*)::int AS n FROM classic_packs GROUP BY status",
      ),
    );
    expect(statuses.rows.length).toBeGreaterThan(0);
    const assigned = await database.db.withConnection((c) =>
      c.query<{ rarity: number; token_seed: string | null; status: string }>(
        "SELECT rarity, token_seed, status FROM classic_packs WHERE status <> 'minted'",
      ),
    );
    for (const pack of assigned.rows) {
      expect(pack.rarity).toBeGreaterThanOrEqual(1);
      expect(pack.rarity).toBeLessThanOrEqual(5);
      expect(pack.token_seed).toMatch(/^\d+$/);
    }
    // Every stored value, not only counts: games, packs, claims and events against the contracts and receipts.
    await expectProjectionMatchesChain(database.db, chain);
  });

  it("after a reorg inside the unfinalised window, the projection equals a fresh re-index from block 0", async () => {
    const snapshot = await chain.snapshot();
    await chain.simulate(15, 7n);
    await syncAll(indexers);
    const before = await snapshotProjection(database.db);
    await chain.revert(snapshot);
    // A different history at the same heights, longer than the one it replaces.
    await chain.simulate(12, 99n);
    await chain.mine(4);
    await syncAll(indexers);
    const afterReorg = await snapshotProjection(database.db);
    expect(afterReorg).not.toEqual(before);
    expect(logs.text()).toContain("reorg: rolled back to the fork block");
    expect(logs.text()).not.toContain("deeper than the finality depth");
    await expectProjectionMatchesChain(database.db, chain);

    const fresh = await setupDatabase();
    try {
      const freshIndexers = indexersFor(fresh.db, chain);
      await syncAll(freshIndexers);
      for (const indexer of freshIndexers) await indexer.stop();
      expect(await snapshotProjection(fresh.db)).toEqual(afterReorg);
    } finally {
      await fresh.close();
    }
  });
});

describe("reading ranges ahead", () => {
  let chain: TestChain;
  beforeAll(async () => {
    // Finality depth 1: nearly every block is final, so nearly every range may be read ahead.
    chain = await setupDevChain(8453, { finalityDepth: 1 });
    await chain.simulate(60);
  }, 120_000);
  afterAll(async () => {
    await chain.close();
  });

  it("gives the projection of reading one range at a time, with contracts discovered by earlier ranges", async () => {
    const sequential = await setupDatabase();
    const ahead = await setupDatabase();
    try {
      const one = indexersFor(sequential.db, chain, { readAhead: 0, initialRange: 10_000 });
      // One block per range, three read ahead: a game's drop and token are created one range and
      // used the next, which was read before they were known.
      const many = indexersFor(ahead.db, chain, { readAhead: 3, initialRange: 1, maxRange: 1 });
      await syncAll(one);
      await syncAll(many);
      for (const indexer of [...one, ...many]) await indexer.stop();
      const { rows } = await ahead.db.withConnection((c) =>
        c.query<{ n: number }>("SELECT count(*)::int AS n FROM classic_packs"),
      );
      expect(rows[0]!.n).toBeGreaterThan(0);
      expect(await snapshotProjection(ahead.db)).toEqual(await snapshotProjection(sequential.db));
    } finally {
      await sequential.close();
      await ahead.close();
    }
  });

  it("drops what it read ahead when the chain is replaced before its turn, and ends equal to a fresh re-index", async () => {
    const database = await setupDatabase();
    const fresh = await setupDatabase();
    const forkFrom = await chain.clients.publicClient.getBlockNumber();
    const snapshot = await chain.snapshot();
    await chain.simulate(20, 5n);
    const replacedBlock = numberToHex(forkFrom + 1n);
    let headerReads = 0;
    let replaced: Promise<void> | undefined;
    // One block per range: block forkFrom + 1 is read ahead with its header (first header read), and
    // its header is read again when its turn comes. Just then, every block after forkFrom is replaced
    // by a different, longer history: what was read ahead is stale.
    const client = createPublicClient({
      transport: custom({
        request: async ({ method, params }) => {
          const [blockNumber] = (params ?? []) as unknown[];
          if (method === "eth_getBlockByNumber" && blockNumber === replacedBlock && ++headerReads === 2) {
            replaced = chain.revert(snapshot).then(() => chain.simulate(25, 77n));
            await replaced;
          }
          return chain.chain.provider.request({ method, params } as never);
        },
      }),
    });
    try {
      const indexers = indexersFor(database.db, chain, {
        client: client as never,
        initialRange: 1,
        maxRange: 1,
        readAhead: 3,
      });
      await syncAll(indexers);
      expect(replaced).toBeDefined();
      await replaced;
      await syncAll(indexers);
      for (const indexer of indexers) await indexer.stop();
      // Dropped before it was written: no reorg of written blocks was needed.
      expect(logs.text()).toContain(`blocks up to ${forkFrom + 1n} changed since they were read`);
      const freshIndexers = indexersFor(fresh.db, chain);
      await syncAll(freshIndexers);
      for (const indexer of freshIndexers) await indexer.stop();
      expect(await snapshotProjection(database.db)).toEqual(await snapshotProjection(fresh.db));
    } finally {
      await database.close();
      await fresh.close();
    }
  }, 120_000);
});

describe("indexer on the prediction-feed dev chain", () => {
  let chain: TestChain;
  let database: TestDatabase;
  let indexers: ScopeIndexer[];
  beforeAll(async () => {
    chain = await setupDevChain(4663);
    database = await setupDatabase();
    indexers = indexersFor(database.db, chain);
  }, 120_000);
  afterAll(async () => {
    for (const indexer of indexers) await indexer.stop();
    await database.close();
    await chain.close();
  });

  it("records RPC failures in head.failure until they clear, then catches up", async () => {
    let broken = true;
    const client = createPublicClient({
      transport: custom({
        request: async ({ method, params }) => {
          if (broken) throw new Error("connection refused by test");
          return chain.chain.provider.request({ method, params } as never);
        },
      }),
    });
    const fresh = await setupDatabase();
    const scope = scopesOf([chain.deployment])[0]!;
    const indexer = createScopeIndexer({
      db: fresh.db,
      logger,
      clock: systemClock,
      scope,
      rpcUrl: "",
      client: client as never,
      pollIntervalMs: 20,
    });
    const head = async () =>
      (
        await fresh.db.withConnection((c) =>
          c.query<{ failure: string | null; next_block: string }>(
            "SELECT failure, next_block FROM indexer_heads",
          ),
        )
      ).rows[0];
    try {
      indexer.start();
      await vi.waitFor(async () => expect((await head())?.failure).toMatch(/connection refused by test/), {
        timeout: 5_000,
        interval: 20,
      });
      broken = false;
      const latest = await chain.clients.publicClient.getBlockNumber();
      await vi.waitFor(
        async () => {
          const current = await head();
          expect(current?.failure).toBeNull();
          // The feed's scope reads finalized blocks only.
          expect(BigInt(current!.next_block)).toBe(latest - BigInt(chain.deployment.finalityDepth) + 1n);
        },
        { timeout: 20_000, interval: 50 },
      );
    } finally {
      await indexer.stop();
      await fresh.close();
    }
  });

  it("resets and rebuilds a scope whose chain is gone (another genesis block)", async () => {
    await syncAll(indexers);
    const before = await snapshotProjection(database.db);
    await database.db.withConnection((c) => c.query("UPDATE indexer_heads SET genesis_hash = '0xgone'"));
    await syncAll(indexers);
    expect(logs.text()).toContain("the chain this scope indexed is gone");
    expect(await snapshotProjection(database.db)).toEqual(before);
  });

  it("projects markets, trades and positions whose pools match the contract", async () => {
    await chain.simulate(40);
    await syncAll(indexers);
    const markets = await database.db.withConnection((c) =>
      c.query<{ address: Address }>("SELECT address FROM predict_markets ORDER BY market_id"),
    );
    expect(markets.rows.length).toBeGreaterThan(0);
    // Every market event, whatever the simulation did: the first market resolved and its pool collected.
    const { publicClient } = chain.clients;
    const market = { address: markets.rows[0]!.address, abi: marketAbi } as const;
    if (!(await publicClient.readContract({ ...market, functionName: "resolved" }))) {
      const operator = chain.clients.wallet(DEV_ACCOUNT_ROLES.marketOperator);
      await waitForSuccess(
        publicClient,
        await operator.writeContract({ ...market, functionName: "resolve", args: [0] }),
      );
    }
    if (!(await publicClient.readContract({ ...market, functionName: "liquidityCollected" }))) {
      const creator = await publicClient.readContract({ ...market, functionName: "creator" });
      const index = chain.clients.accounts.findIndex((account) => account.address === creator);
      const wallet = chain.clients.wallet(index);
      await waitForSuccess(
        publicClient,
        await wallet.writeContract({ ...market, functionName: "collectLiquidity" }),
      );
    }
    // The feed's scope reads finalized blocks only: the last transactions become final `depth` blocks later.
    await chain.mine(chain.deployment.finalityDepth);
    await syncAll(indexers);
    const events = await database.db.withConnection((c) =>
      c.query<{ event: string }>("SELECT DISTINCT event FROM chain_events WHERE address = $1", [
        market.address,
      ]),
    );
    expect(events.rows.map((row) => row.event)).toEqual(
      expect.arrayContaining(["Resolved", "LiquidityCollected"]),
    );
    const trades = await database.db.withConnection((c) =>
      c.query<{ kind: string }>("SELECT DISTINCT kind FROM predict_trades"),
    );
    expect(trades.rows.map((row) => row.kind)).toEqual(expect.arrayContaining(["buy", "sell"]));
    // Markets (pools, backing, status, outcome, volume), positions and trades against the contracts and receipts.
    await expectProjectionMatchesChain(database.db, chain);
  });

  const predictHead = async () =>
    (
      await database.db.withConnection((c) =>
        c.query<{ next_block: string; block_hash: string; block_time: Date | null; observed_head: string }>(
          "SELECT next_block, block_hash, block_time, observed_head FROM indexer_heads WHERE scope = $1",
          [scopesOf([chain.deployment])[0]!.id],
        ),
      )
    ).rows[0]!;
  const marketRow = async (address: string) =>
    (
      await database.db.withConnection((c) =>
        c.query<{ status: string; paused: boolean; outcome: number | null }>(
          "SELECT status, paused, outcome FROM predict_markets WHERE address = $1",
          [address.toLowerCase()],
        ),
      )
    ).rows[0];

  it("indexes only finalized blocks: a trade appears once `finalityDepth` more blocks are mined", async () => {
    const { publicClient } = chain.clients;
    const depth = BigInt(chain.deployment.finalityDepth);
    await chain.simulate(12, 7n);
    await syncAll(indexers);
    const latest = await publicClient.getBlockNumber();
    const head = await predictHead();
    // The head is the last final block, with its hash and time; the chain's newest block is observed.
    expect(BigInt(head.next_block) - 1n).toBe(latest - depth);
    const final = await publicClient.getBlock({ blockNumber: latest - depth });
    expect(head.block_hash).toBe(final.hash);
    expect(head.block_time?.getTime()).toBe(Number(final.timestamp) * 1000);
    expect(BigInt(head.observed_head)).toBe(latest);
    await expectProjectionMatchesChain(database.db, chain);

    // A buy in the newest block is not final yet: not in the projection until `depth` blocks follow it.
    const [first] = (
      await database.db.withConnection((c) =>
        c.query<{ address: Address }>("SELECT address FROM predict_markets WHERE status = 'active' LIMIT 1"),
      )
    ).rows;
    const market = { address: first!.address, abi: marketAbi } as const;
    const buyer = chain.clients.wallet(9);
    const weth = chain.deployment.contracts["WETH"]!.address;
    await waitForSuccess(
      publicClient,
      await buyer.writeContract({
        address: weth,
        abi: wethAbi,
        functionName: "deposit",
        value: parseEther("1"),
      }),
    );
    await waitForSuccess(
      publicClient,
      await buyer.writeContract({
        address: weth,
        abi: wethAbi,
        functionName: "approve",
        args: [market.address, parseEther("1")],
      }),
    );
    const buy = await buyer.writeContract({ ...market, functionName: "buy", args: [0, 10n ** 15n, 0n] });
    await waitForSuccess(publicClient, buy);
    const trades = async () =>
      (
        await database.db.withConnection((c) =>
          c.query("SELECT kind FROM predict_trades WHERE transaction_hash = $1", [buy]),
        )
      ).rows;
    for (let mined = 0n; mined < depth; mined++) {
      await syncAll(indexers);
      expect(await trades()).toEqual([]);
      const now = await publicClient.getBlockNumber();
      expect(BigInt((await predictHead()).next_block) - 1n).toBe(now - depth);
      await chain.mine(1);
    }
    await syncAll(indexers);
    expect(await trades()).toEqual([{ kind: "buy" }]);
    await expectProjectionMatchesChain(database.db, chain);
  });

  it("keeps a resolved market resolved when the operator pauses and unpauses it", async () => {
    const { publicClient } = chain.clients;
    const operator = chain.clients.wallet(DEV_ACCOUNT_ROLES.marketOperator);
    const [open] = (
      await database.db.withConnection((c) =>
        c.query<{ address: Address }>("SELECT address FROM predict_markets WHERE status = 'active' LIMIT 1"),
      )
    ).rows;
    const market = { address: open!.address, abi: marketAbi } as const;
    const send = async (functionName: "resolve" | "pause" | "unpause") =>
      waitForSuccess(
        publicClient,
        await operator.writeContract(
          functionName === "resolve" ? { ...market, functionName, args: [1] } : { ...market, functionName },
        ),
      );
    const settle = async () => {
      await chain.mine(chain.deployment.finalityDepth);
      await syncAll(indexers);
    };
    await send("resolve");
    await settle();
    expect(await marketRow(market.address)).toEqual({ status: "resolved", paused: false, outcome: 1 });
    await send("pause");
    await settle();
    expect(await marketRow(market.address)).toEqual({ status: "resolved", paused: true, outcome: 1 });
    await send("unpause");
    await settle();
    expect(await marketRow(market.address)).toEqual({ status: "resolved", paused: false, outcome: 1 });
    expect(await publicClient.readContract({ ...market, functionName: "resolved" })).toBe(true);
    await expectProjectionMatchesChain(database.db, chain);
  });
});

postgresOnly.describe("killed with SIGKILL mid-backfill", () => {
  it("resumes with nothing lost or duplicated", async () => {
    const chain = await setupDevChain(8453);
    const database = await setupDatabase();
    const reference = await setupDatabase();
    try {
      await chain.simulate(40);
      const script = new URL("../_test/index-process.ts", import.meta.url).pathname;
      const env = {
        ...process.env,
        DATABASE_URL: database.url!,
        MKT_TEST_DEPLOYMENT: JSON.stringify(chain.deployment),
      };
      const child = spawn(process.execPath, ["--import", "tsx", script], { env, stdio: "ignore" });
      // Kill it once it has committed some ranges but not all.
      const latest = await chain.clients.publicClient.getBlockNumber();
      await vi.waitFor(
        async () => {
          const { rows } = await database.db.withConnection((c) =>
            c.query<{ next: string }>("SELECT max(next_block) AS next FROM indexer_heads"),
          );
          expect(Number(rows[0]?.next ?? 0)).toBeGreaterThan(10);
        },
        { timeout: 60_000, interval: 5 },
      );
      child.kill("SIGKILL");
      await once(child, "exit");
      const { rows } = await database.db.withConnection((c) =>
        c.query<{ next: string }>("SELECT min(next_block) AS next FROM indexer_heads"),
      );
      expect(BigInt(rows[0]!.next)).toBeLessThanOrEqual(latest);
      const rerun = spawn(process.execPath, ["--import", "tsx", script], { env, stdio: "ignore" });
      const [code] = await once(rerun, "exit");
      expect(code).toBe(0);
      const referenceIndexers = indexersFor(reference.db, chain);
      await syncAll(referenceIndexers);
      for (const indexer of referenceIndexers) await indexer.stop();
      expect(await snapshotProjection(database.db)).toEqual(await snapshotProjection(reference.db));
    } finally {
      await database.close();
      await reference.close();
      await chain.close();
    }
  }, 180_000);
});
