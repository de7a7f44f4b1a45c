import { claimDropsAbi, waitForSuccess } from "@mkt/chain";
import { sql } from "kysely";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock, setupApp, type TestApp } from "../../_test/app.ts";
import { setupDatabase, type TestDatabase } from "../../_test/database.ts";
import { setupDevChain, type TestChain } from "../../_test/dev-chain.ts";
import { claimDropsOf, claimedLog, marketDeployment, projectLogs, seedRuntimes } from "../../_test/market.ts";
import { chainRoles } from "../../chains/index.ts";
import { createScopeIndexer, type ScopeIndexer } from "../../indexer/engine.ts";
import { marketProjection } from "../../indexer/market-projection.ts";
import { scopesOf } from "../../indexer/projections.ts";
import { createLogger } from "../../logging/index.ts";
import { systemClock } from "../../quotas/limiter.ts";

const GWEI = 1_000_000_000n;

describe("board from claims made on the dev chain", () => {
  let chain: TestChain;
  let database: TestDatabase;
  let indexers: ScopeIndexer[];
  let test: TestApp;
  let apiKey: string;
  const wallet = (index: number) => chain.clients.wallet(index);
  const addressOf = (index: number) => wallet(index).account.address.toLowerCase();
  let oldRuntime: string;
  let currentRuntime: string;

  beforeAll(async () => {
    chain = await setupDevChain(8453);
    database = await setupDatabase();
    const logger = createLogger({ level: "silent" });
    indexers = scopesOf([chain.deployment]).map((scope) =>
      createScopeIndexer({
        db: database.db,
        logger,
        clock: systemClock,
        scope,
        rpcUrl: chain.deployment.rpcUrl,
      }),
    );
    test = await setupApp({ database, deployments: [chain.deployment] });
    apiKey = (await test.createKey({ multiplier: 100 })).key;

    const [old, current] = chain.deployment.runtimes;
    oldRuntime = old!.id;
    currentRuntime = current!.id;
    const claimsOf = (runtime: typeof old) => runtime!.contracts["ClaimDrops"] as Address;
    const send = async (
      from: number,
      runtime: typeof old,
      functionName: "createDrop" | "claim",
      args: readonly bigint[],
      value = 0n,
    ) => {
      const hash = await wallet(from).writeContract({
        address: claimsOf(runtime),
        abi: claimDropsAbi,
        functionName,
        args: args as never,
        value,
      } as never);
      await waitForSuccess(chain.clients.publicClient, hash);
    };
    // Creator 4: drop 501 in the current runtime at 1 gwei, drop 502 in the old runtime free.
    // Creator 5: drop 601 in the current runtime, free.
    await send(4, current, "createDrop", [501n, GWEI, 0n]);
    await send(4, old, "createDrop", [502n, 0n, 0n]);
    await send(5, current, "createDrop", [601n, 0n, 0n]);
    await send(6, current, "claim", [501n, 2n], 2n * GWEI);
    await send(7, current, "claim", [501n, 1n], GWEI);
    await send(7, old, "claim", [502n, 5n]);
    await send(6, current, "claim", [601n, 5n]);
    await send(8, current, "claim", [601n, 1n]);
    await send(9, current, "claim", [601n, 1n]);
    for (const indexer of indexers) await indexer.syncOnce();
  }, 120_000);
  afterAll(async () => {
    for (const indexer of indexers ?? []) await indexer.stop();
    await test?.close();
    await database?.close();
    await chain?.close();
  });

  const get = (url: string) => test.app.server.inject({ method: "GET", url, headers: { "api-key": apiKey } });

  it("ranks creators by packs, volume or holders, with amounts as decimal strings", async () => {
    const byClaims = await get("/market/board/creators?window=all");
    expect(byClaims.statusCode, byClaims.body).toBe(200);
    expect(byClaims.headers["cache-control"]).toBe("private, max-age=30");
    expect(byClaims.json()).toMatchObject({
      window: "all",
      sort: "claims",
      from: null,
      versions: [currentRuntime, oldRuntime],
      next: null,
      entries: [
        {
          rank: 1,
          address: addressOf(4),
          claims: 3,
          packs: "8",
          volume: (3n * GWEI).toString(),
          holders: 2,
          drops: 2,
        },
        { rank: 2, address: addressOf(5), claims: 3, packs: "7", volume: "0", holders: 3, drops: 1 },
      ],
    });
    const byHolders = await get("/market/board/creators?window=all&sort=holders");
    expect(byHolders.json().entries.map((entry: { address: string }) => entry.address)).toEqual([
      addressOf(5),
      addressOf(4),
    ]);
    const oneRuntime = await get(`/market/board/creators?window=all&version=${oldRuntime}`);
    expect(oneRuntime.json()).toMatchObject({
      versions: [oldRuntime],
      entries: [{ rank: 1, address: addressOf(4), claims: 1, packs: "5", volume: "0", holders: 1, drops: 1 }],
    });
  });

  it("ranks collectors and pages them by offset with a total order", async () => {
    const first = await get("/market/board/collectors?window=24h&sort=volume&limit=2");
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      sort: "volume",
      next: 2,
      entries: [
        {
          rank: 1,
          address: addressOf(6),
          claims: 2,
          packs: "7",
          volume: (2n * GWEI).toString(),
          drops: 2,
          creators: 2,
        },
        {
          rank: 2,
          address: addressOf(7),
          claims: 2,
          packs: "6",
          volume: GWEI.toString(),
          drops: 2,
          creators: 1,
        },
      ],
    });
    const second = await get("/market/board/collectors?window=24h&sort=volume&limit=2&offset=2");
    const tail = [addressOf(8), addressOf(9)].sort();
    expect(second.json()).toMatchObject({
      next: null,
      entries: [
        { rank: 3, address: tail[0], packs: "1", volume: "0" },
        { rank: 4, address: tail[1], packs: "1", volume: "0" },
      ],
    });
    // The 24h window states its bounds.
    const body = first.json();
    expect(body.to - body.from).toBe(86_400_000);
  });

  it("answers the all-time boards from the projection's summaries with what the claims add up to", async () => {
    // Every claim of this chain is minutes old: the 24h boards aggregate the claims themselves, the
    // all-time boards read the summaries the projection kept claim by claim; both must agree.
    const comparable = (body: Record<string, unknown>) => ({
      ...body,
      window: undefined,
      from: undefined,
      to: undefined,
    });
    for (const board of [
      "creators?sort=claims",
      "creators?sort=volume",
      "creators?sort=holders",
      "collectors?sort=claims",
      "collectors?sort=volume",
      "collectors?sort=drops",
    ]) {
      for (const version of ["", `&version=${oldRuntime}`, `&version=${currentRuntime}`]) {
        const all = await get(`/market/board/${board}&window=all${version}`);
        const day = await get(`/market/board/${board}&window=24h${version}`);
        expect(all.statusCode, all.body).toBe(200);
        expect(all.json().entries.length, `${board}${version}`).toBeGreaterThan(0);
        expect(comparable(all.json()), `${board}${version}`).toEqual(comparable(day.json()));
      }
    }
  });

  it("refuses bad input with 400 and an unknown runtime with 404, in {error}", async () => {
    for (const query of [
      "window=1y",
      "sort=holders",
      "limit=0",
      "limit=101",
      "offset=10001",
      "version=%20",
    ]) {
      const response = await get(`/market/board/collectors?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toEqual({ error: expect.any(String) });
    }
    const unknown = await get("/market/board/creators?version=r9");
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: expect.stringContaining("GET /market/runtime") });
  });

  it("is served to the first-party proxy and keyless only with PUBLIC_READS=open", async () => {
    const keyless = await test.app.server.inject({ method: "GET", url: "/market/board/creators" });
    expect(keyless.statusCode).toBe(401);
    const proxied = await test.app.server.inject({
      method: "GET",
      url: "/app/api/board/creators?window=all",
      headers: { "sec-fetch-site": "same-origin" },
    });
    expect(proxied.statusCode, proxied.body).toBe(200);
    expect(proxied.json().entries[0].address).toBe(addressOf(4));
  });
});

describe("board windows", () => {
  const clock = createManualClock(Date.UTC(2026, 10, 25, 12, 0, 0));
  const NOW = clock.now();
  const HOUR = 3_600_000;
  const DAY = 24 * HOUR;
  const deployment = marketDeployment();
  const wallet = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
  let test: TestApp;
  let apiKey: string;

  beforeAll(async () => {
    test = await setupApp({ clock, deployments: [deployment] });
    apiKey = (await test.createKey({ multiplier: 100 })).key;
    const k = test.db.kysely;
    const scope = await seedRuntimes(test.db, deployment);
    const contract = claimDropsOf(deployment, "r2");
    await sql`INSERT INTO market_drops (scope, chain_id, runtime_id, drop_id, contract, creator, price, max_supply, created_block, created_tx, updated_block)
      VALUES (${scope}, 8453, 'r2', 1, ${contract}, ${wallet(0xc1)}, 0, 0, 1, '0xd1', 1)`.execute(k);
    // One claim per wallet, at the edges of each window: exactly 24h old counts in 24h, one millisecond more does not.
    const claims: Array<[number, number]> = [
      [1, NOW - DAY],
      [2, NOW - DAY - 1],
      [3, NOW - 7 * DAY],
      [4, NOW - 7 * DAY - 1],
      [5, NOW - 30 * DAY],
      [6, NOW - 30 * DAY - 1],
    ];
    // Through the projection's write path, which also keeps the all-time summaries the board reads.
    await test.db.withConnection((connection) =>
      projectLogs(
        connection,
        marketProjection(chainRoles([deployment]).market!),
        claims.map(([owner, time], index) =>
          claimedLog(deployment, "r2", {
            blockNumber: 10 + index,
            blockTime: new Date(time),
            owner: wallet(owner),
            dropId: 1n,
            quantity: BigInt(owner),
            paid: 0n,
            // The drop's running total: 1 + 2 + … + owner.
            totalClaimed: BigInt((owner * (owner + 1)) / 2),
          }),
        ),
      ),
    );
  });
  afterAll(() => test.close());

  const owners = async (window: string) => {
    const response = await test.app.server.inject({
      method: "GET",
      url: `/market/board/collectors?window=${window}`,
      headers: { "api-key": apiKey },
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    if (body.from !== null)
      expect(body.to - body.from).toBe({ "24h": DAY, "7d": 7 * DAY, "30d": 30 * DAY }[window as "24h"]);
    return body.entries.map((entry: { address: string }) => entry.address);
  };

  it("counts a claim when its block time is at or after the read's time minus the window", async () => {
    // Sorted by packs (each wallet claimed its own number of packs), highest first.
    expect(await owners("24h")).toEqual([wallet(1)]);
    expect(await owners("7d")).toEqual([wallet(3), wallet(2), wallet(1)]);
    expect(await owners("30d")).toEqual([5, 4, 3, 2, 1].map(wallet));
    expect(await owners("all")).toEqual([6, 5, 4, 3, 2, 1].map(wallet));
  });

  it("creator totals follow the window too", async () => {
    const response = await test.app.server.inject({
      method: "GET",
      url: "/market/board/creators?window=7d",
      headers: { "api-key": apiKey },
    });
    expect(response.json().entries).toEqual([
      {
        rank: 1,
        address: wallet(0xc1),
        claims: 3,
        packs: "6",
        volume: "0",
        holders: 3,
        drops: 1,
        lastClaimAt: NOW - DAY,
      },
    ]);
  });
});
