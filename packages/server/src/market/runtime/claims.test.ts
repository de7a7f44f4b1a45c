import { claimDropsAbi, deployRuntime, waitForSuccess } from "@mkt/chain";
import { createMktClient, type MktClient } from "@mkt/client";
import type { ClaimList, MarketRuntime, MarketRuntimeCatalog } from "@mkt/protocol";
import type { Address, Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setupApp, type TestApp } from "../../_test/app.ts";
import { setupDevChain, type TestChain } from "../../_test/dev-chain.ts";
import { chainRoles } from "../../chains/index.ts";

/**
 * End to end on the dev chain: transactions → the registry scope's indexer
 * → `GET /market/runtime…` over HTTP and through the SDK. The test drives
 * the indexer (`syncOnce`) so each read follows a known chain state.
 */
describe("runtime catalog and claims from the chain", () => {
  let chain: TestChain;
  let t: TestApp;
  let apiKey: string;
  let client: MktClient;
  let scope: string;
  /** Account 2 (the market operator) is never used by the simulator: its claims are the test's alone. */
  const OWNER_INDEX = 2;
  let owner: Address;
  let r2: Address;

  const sync = async () => {
    await t.app.services.indexer!.indexerOf(scope)!.syncOnce();
  };
  const get = async (url: string) => {
    const response = await t.app.server.inject({ method: "GET", url, headers: { "api-key": apiKey } });
    return { status: response.statusCode, body: response.json() as never, headers: response.headers };
  };
  const send = async (hash: Promise<Hex>) => waitForSuccess(chain.clients.publicClient, await hash);
  const createDrop = (claimDrops: Address, dropId: bigint, price = 0n, maxSupply = 0n) =>
    send(
      chain.clients.wallet(OWNER_INDEX).writeContract({
        address: claimDrops,
        abi: claimDropsAbi,
        functionName: "createDrop",
        args: [dropId, price, maxSupply],
      }),
    );
  const claim = async (claimDrops: Address, dropId: bigint, quantity = 1n) =>
    (
      await send(
        chain.clients.wallet(OWNER_INDEX).writeContract({
          address: claimDrops,
          abi: claimDropsAbi,
          functionName: "claim",
          args: [dropId, quantity],
        }),
      )
    ).transactionHash;
  /** The owner's Claimed logs on the chain up to `toBlock`, as `block:logIndex` keys. */
  const chainClaims = async (claimDrops: Address, toBlock: bigint) =>
    (
      await chain.clients.publicClient.getContractEvents({
        address: claimDrops,
        abi: claimDropsAbi,
        eventName: "Claimed",
        args: { owner },
        fromBlock: 0n,
        toBlock,
      })
    ).map((log) => `${log.blockNumber}:${log.logIndex}`);

  beforeAll(async () => {
    // A window wide enough that the reorg below is undone block by block.
    chain = await setupDevChain(8453, { finalityDepth: 64 });
    t = await setupApp({ deployments: [chain.deployment] });
    scope = chainRoles([chain.deployment]).market!.scope;
    apiKey = (await t.createKey({ multiplier: 100 })).key;
    const { publicUrl } = await t.app.listen();
    client = createMktClient({ baseUrl: publicUrl, apiKey });
    owner = chain.clients.accounts[OWNER_INDEX]!.address.toLowerCase() as Address;
    r2 = chain.deployment.runtimes.find((runtime) => runtime.id === "r2")!.contracts["ClaimDrops"]!;
    await sync();
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await chain?.close();
  });

  it("lists the registry's runtimes and serves a runtime's catalog with its drops and head", async () => {
    const registry = chain.deployment.contracts["RuntimeRegistry"]!.address.toLowerCase();
    const list = await get("/market/runtime");
    expect(list.status).toBe(200);
    const runtimes = (list.body as { runtimes: MarketRuntime[] }).runtimes;
    expect(runtimes.map(({ id, version, current, scope: s }) => ({ id, version, current, s }))).toEqual([
      { id: "r2", version: "2", current: true, s: scope },
      { id: "r1", version: "1", current: false, s: scope },
    ]);
    for (const runtime of chain.deployment.runtimes) {
      expect(runtimes.find((entry) => entry.id === runtime.id)?.contracts).toEqual({
        ClaimDrops: runtime.contracts["ClaimDrops"]!.toLowerCase(),
        RuntimeRegistry: registry,
      });
    }
    expect(await client.market.runtime.list()).toEqual(runtimes);

    const catalog = await get("/market/runtime/r2");
    expect(catalog.status).toBe(200);
    expect(catalog.headers["cache-control"]).toBe("private, max-age=5");
    const body = catalog.body as MarketRuntimeCatalog;
    expect(body.runtime.id).toBe("r2");
    // Every DropCreated of r2 on the chain, in creation order (block, then id), with its values.
    const created = await chain.clients.publicClient.getContractEvents({
      address: r2,
      abi: claimDropsAbi,
      eventName: "DropCreated",
      fromBlock: 0n,
    });
    const expected = created
      .map((log) => ({
        id: log.args.dropId!.toString(),
        price: log.args.price!.toString(),
        maxSupply: log.args.maxSupply!.toString(),
        claimed: "0",
        contract: r2.toLowerCase(),
        createdBlock: Number(log.blockNumber),
        createdTransaction: log.transactionHash,
      }))
      .sort((a, b) => a.createdBlock - b.createdBlock || (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
    expect(expected.map((drop) => drop.id).sort()).toEqual(
      [(2n ** 256n - 1n).toString(), "12345678901234567890123456789"].sort(),
    );
    expect(body.drops.map(({ creator: _creator, ...drop }) => drop)).toEqual(expected);
    expect(body.next).toBeUndefined();
    const latest = await chain.clients.publicClient.getBlockNumber();
    expect(body.head).toMatchObject({
      scope,
      nextBlock: Number(latest) + 1,
      failure: "",
      observedHead: Number(latest),
      webhookAudit: {},
    });
    expect(body.head.blockHash).toBe(
      (await chain.clients.publicClient.getBlock({ blockNumber: latest })).hash,
    );

    // Drops page with an authenticated cursor.
    const first = (await get("/market/runtime/r2?limit=1")).body as MarketRuntimeCatalog;
    expect(first.drops).toHaveLength(1);
    const second = (await get(`/market/runtime/r2?limit=1&cursor=${first.next}`))
      .body as MarketRuntimeCatalog;
    expect([...first.drops, ...second.drops]).toEqual(body.drops);
    expect(second.next).toBeUndefined();
    expect((await get(`/market/runtime/r1?limit=1&cursor=${first.next}`)).status).toBe(400);
  });

  it("answers 404 for a version the registry never registered, on every runtime route", async () => {
    for (const url of [
      "/market/runtime/r9",
      `/market/runtime/r9/claims?owner=${owner}`,
      "/market/runtime/v2",
    ]) {
      const response = await get(url);
      expect(response.status, url).toBe(404);
      expect(response.body).toEqual({ error: expect.stringContaining("GET /market/runtime") });
    }
    const edit = await t.app.server.inject({
      method: "POST",
      url: "/market/runtime/r9/pack-edit",
      headers: { "api-key": apiKey },
      payload: {
        address: owner,
        nonce: crypto.randomUUID(),
        expires: Date.now() + 60_000,
        action: { kind: "set-name", packId: "1", name: "x" },
        signature: `0x${"11".repeat(65)}`,
      },
    });
    expect(edit.statusCode).toBe(404);
  });

  it("serves claims made by transactions, through the route and the SDK, with head advancing", async () => {
    const dropId = 10n ** 77n + 5n;
    await createDrop(r2, dropId);
    await sync();
    const before = ((await get(`/market/runtime/r2/claims?owner=${owner}`)).body as ClaimList).head;
    const hashes = [await claim(r2, dropId, 3n), await claim(r2, dropId, 2n)];
    await sync();
    const response = await get(`/market/runtime/r2/claims?owner=${owner.toUpperCase().replace("0X", "0x")}`);
    expect(response.status).toBe(200);
    expect(response.headers["cache-control"]).toBe("private, no-store");
    const page = response.body as ClaimList;
    const receipts = await Promise.all(
      hashes.map((hash) => chain.clients.publicClient.getTransactionReceipt({ hash })),
    );
    const blocks = await Promise.all(
      receipts.map((receipt) => chain.clients.publicClient.getBlock({ blockNumber: receipt.blockNumber })),
    );
    expect(page.items).toEqual(
      receipts.map((receipt, i) => ({
        dropId: dropId.toString(),
        contract: r2.toLowerCase(),
        owner,
        quantity: ["3", "2"][i],
        paid: "0",
        totalClaimed: ["3", "5"][i],
        transactionHash: receipt.transactionHash,
        blockNumber: Number(receipt.blockNumber),
        logIndex: receipt.logs[0]!.logIndex,
        blockTime: Number(blocks[i]!.timestamp) * 1000,
      })),
    );
    expect(page.next).toBeUndefined();
    expect(page.head.nextBlock).toBe(Number(receipts[1]!.blockNumber) + 1);
    expect(page.head.nextBlock).toBeGreaterThan(before.nextBlock);
    expect(page.head.revision).toBeGreaterThan(before.revision);
    expect(page.head.updatedAt).toBeGreaterThanOrEqual(before.updatedAt);
    expect(page.head.observedAt).toBeGreaterThan(0);

    // The drop filter, and the SDK's page read and iterator over the same data.
    expect((await client.market.runtime.claims("r2", { owner, dropId: dropId.toString() })).items).toEqual(
      page.items,
    );
    expect((await client.market.runtime.claims("r2", { owner, dropId: "7" })).items).toEqual([]);
    const walked = [];
    for await (const item of client.market.runtime.iterateClaims("r2", { owner, limit: 1 }))
      walked.push(item);
    expect(walked).toEqual(page.items);
    // The catalog's drop counts the claims.
    await vi.waitFor(async () => {
      const catalog = await client.market.runtime.get("r2");
      expect(catalog.drops.find((drop) => drop.id === dropId.toString())?.claimed).toBe("5");
    });
  });

  it("refuses malformed queries and forged, truncated, cross-owner and cross-filter cursors with 400", async () => {
    const base = `/market/runtime/r2/claims?owner=${owner}&limit=1`;
    const first = (await get(base)).body as ClaimList;
    expect(first.items).toHaveLength(1);
    const cursor = first.next!;
    expect(cursor.length).toBeLessThanOrEqual(500);
    expect((await get(`${base}&cursor=${cursor}`)).status).toBe(200);

    const [payload, mac] = cursor.split(".");
    const forgedPosition = Buffer.from(JSON.stringify(["0", "0"])).toString("base64url");
    const otherOwner = chain.clients.accounts[5]!.address.toLowerCase();
    const refused = [
      `${base}&cursor=${cursor.slice(0, -1)}`,
      `${base}&cursor=${cursor.slice(0, 20)}`,
      `${base}&cursor=${forgedPosition}.${mac}`,
      `${base}&cursor=${payload}`,
      `${base}&cursor=${payload}.${"A".repeat(43)}`,
      `/market/runtime/r2/claims?owner=${otherOwner}&limit=1&cursor=${cursor}`,
      `${base}&dropId=12345678901234567890123456789&cursor=${cursor}`,
      `/market/runtime/r1/claims?owner=${owner}&limit=1&cursor=${cursor}`,
      `${base}&cursor=${"a".repeat(501)}`,
      "/market/runtime/r2/claims",
      "/market/runtime/r2/claims?owner=0x1234",
      `/market/runtime/r2/claims?owner=${owner}&dropId=0`,
      `/market/runtime/r2/claims?owner=${owner}&dropId=01`,
      `/market/runtime/r2/claims?owner=${owner}&dropId=1${"0".repeat(78)}`,
      `/market/runtime/r2/claims?owner=${owner}&limit=0`,
      `/market/runtime/r2/claims?owner=${owner}&limit=101`,
    ];
    for (const url of refused) {
      const response = await get(url);
      expect(response.status, url).toBe(400);
      expect(response.body, url).toEqual({ error: expect.any(String) });
    }
    expect(((await get("/market/runtime/r2/claims")).body as { error: string }).error).toMatch(/owner/);
  });

  it("walks every page while claims keep being made: each claim once, exactly the chain's", async () => {
    const dropId = 777n;
    await createDrop(r2, dropId);
    // The walk crosses block 100 (where the order of block numbers as text would differ).
    const start = await chain.clients.publicClient.getBlockNumber();
    if (start < 97n) await chain.mine(Number(97n - start));
    for (let i = 0; i < 5; i++) await claim(r2, dropId);
    await sync();
    const seen: string[] = [];
    let cursor: string | undefined;
    let last: ClaimList;
    let pages = 0;
    do {
      last = await client.market.runtime.claims("r2", { owner, limit: 2, cursor });
      seen.push(...last.items.map((item) => `${item.blockNumber}:${item.logIndex}`));
      cursor = last.next;
      pages += 1;
      // More claims (and other activity) are indexed between pages, for the first few pages.
      if (pages <= 3) {
        await claim(r2, dropId);
        await claim(r2, dropId, 2n);
        await chain.simulate(3);
        await sync();
      }
    } while (cursor !== undefined);
    expect(pages).toBeGreaterThan(4);
    expect(seen.some((key) => Number(key.split(":")[0]) < 100)).toBe(true);
    expect(seen.some((key) => Number(key.split(":")[0]) >= 100)).toBe(true);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(await chainClaims(r2, BigInt(last.head.nextBlock - 1)));
  });

  it("removes a claim a reorg dropped from the next read", async () => {
    const dropId = 4242n;
    await createDrop(r2, dropId);
    await sync();
    const snapshot = await chain.snapshot();
    const hash = await claim(r2, dropId);
    await sync();
    const withClaim = await client.market.runtime.claims("r2", { owner, dropId: dropId.toString() });
    expect(withClaim.items.map((item) => item.transactionHash)).toEqual([hash]);

    await chain.revert(snapshot);
    await chain.mine(3);
    await sync();
    const after = await client.market.runtime.claims("r2", { owner, dropId: dropId.toString() });
    expect(after.items).toEqual([]);
    expect(after.head.revision).toBeGreaterThan(withClaim.head.revision);
    const latest = await chain.clients.publicClient.getBlockNumber();
    expect(after.head.nextBlock).toBe(Number(latest) + 1);
    expect(after.head.blockHash).toBe(
      (await chain.clients.publicClient.getBlock({ blockNumber: latest })).hash,
    );
    expect(await chainClaims(r2, latest)).not.toContain(
      `${withClaim.items[0]!.blockNumber}:${withClaim.items[0]!.logIndex}`,
    );
  });

  it("adds a runtime registered on the registry to the catalog and indexes its claims", async () => {
    const registry = chain.deployment.contracts["RuntimeRegistry"]!.address;
    const r3 = await deployRuntime({ clients: chain.clients, registry, id: "r3", version: 3 });
    const claimDrops = r3.contracts["ClaimDrops"]!;
    expect((await get("/market/runtime/r3")).status).toBe(404);
    const dropId = 31n;
    await createDrop(claimDrops, dropId, 0n, 10n);
    const hash = await claim(claimDrops, dropId, 4n);
    await sync();

    // The shared read cache of the list moves with the registry scope's commits.
    await vi.waitFor(async () => {
      const runtimes = (await client.market.runtime.list()).map(({ id, version, current }) => ({
        id,
        version,
        current,
      }));
      expect(runtimes).toEqual([
        { id: "r3", version: "3", current: true },
        { id: "r2", version: "2", current: false },
        { id: "r1", version: "1", current: false },
      ]);
    });
    const catalog = await client.market.runtime.get("r3");
    expect(catalog.runtime.contracts["ClaimDrops"]).toBe(claimDrops.toLowerCase());
    expect(catalog.drops).toEqual([
      expect.objectContaining({
        id: "31",
        maxSupply: "10",
        claimed: "4",
        contract: claimDrops.toLowerCase(),
      }),
    ]);
    const page = await client.market.runtime.claims("r3", { owner });
    expect(page.items.map(({ transactionHash, quantity }) => ({ transactionHash, quantity }))).toEqual([
      { transactionHash: hash, quantity: "4" },
    ]);
    // The other runtimes' claims stay theirs.
    expect((await client.market.runtime.claims("r2", { owner, dropId: "31" })).items).toEqual([]);
  });
});
