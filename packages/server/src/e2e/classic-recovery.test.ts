import {
  boosterDropAbi,
  DEV_ACCOUNT_ROLES,
  dropFactoryAbi,
  liveBoosterDropAbi,
  waitForSuccess,
} from "@mkt/chain";
import { createMktClient, MktApiError, type MktClient } from "@mkt/client";
import type { ClassicRangePage, ClassicRecovery, ClassicStats } from "@mkt/protocol";
import { type Address, type Hex, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { testWallet } from "../_test/accounts.ts";
import { setupApp, type TestApp } from "../_test/app.ts";
import { setupDevChain, type TestChain } from "../_test/dev-chain.ts";
import { CLASSIC_INDEXER_SOURCE } from "../classic/routes.ts";

const PUBLIC_URL = "https://api.mkt.test";
/** Account 2 is never used by the deployment's games: its packs are this test's doing. */
const COLLECTOR = DEV_ACCOUNT_ROLES.marketOperator;

/**
 * Recovery end to end: the indexer is made to skip one
 * classic transaction's logs (the fault-injection seam), the reads show the
 * wrong state, `GET /classic/events/{txHash}` over HTTP and through the SDK
 * repairs it so the reads match the chain, and a second call applies and
 * changes nothing. Expectations are read from the contracts with viem.
 */
describe("Classic event recovery end to end on the dev chain", () => {
  let chain: TestChain;
  let t: TestApp;
  let baseUrl: string;
  let apiKey: string;
  let token: string;
  let client: MktClient;
  let drop: Address;
  /** Transactions whose logs the indexer drops. */
  const skipped = new Set<string>();

  const publicClient = () => chain.clients.publicClient;

  /** Indexes every scope to the chain's head and waits until this replica's read cache has seen the commit. */
  const sync = async () => {
    const [counter] = t.app.services.revisions.counters([CLASSIC_INDEXER_SOURCE]);
    const before = counter!.value;
    for (const indexer of t.app.services.indexer!.indexers) await indexer.syncOnce();
    await vi.waitFor(() => expect(counter!.value).toBeGreaterThan(before), { interval: 5, timeout: 10_000 });
  };

  const get = async <T>(path: string, headers: Record<string, string> = { "api-key": apiKey }) => {
    const response = await fetch(`${baseUrl}${path}`, { headers });
    return { status: response.status, body: (await response.json()) as T };
  };
  const bearer = () => ({ "api-key": apiKey, authorization: `Bearer ${token}` });

  const mint = async (amount: bigint) => {
    const price = await publicClient().readContract({
      address: drop,
      abi: liveBoosterDropAbi,
      functionName: "getMintPrice",
      args: [amount],
    });
    const hash = await chain.clients.wallet(COLLECTOR).writeContract({
      address: drop,
      abi: liveBoosterDropAbi,
      functionName: "mint",
      args: [amount],
      value: price,
    });
    const receipt = await waitForSuccess(publicClient(), hash);
    const [minted] = parseEventLogs({
      abi: liveBoosterDropAbi,
      logs: receipt.logs,
      eventName: "BoosterDropsMinted",
    });
    const ids: bigint[] = [];
    for (let id = minted!.args.startTokenId; id <= minted!.args.endTokenId; id++) ids.push(id);
    return { hash: hash.toLowerCase() as Hex, ids, logs: receipt.logs };
  };

  /** The collector's packs of the drop as `/range` shows them: token id, owner, status. */
  const collectorPacks = async () => {
    const collector = chain.clients.accounts[COLLECTOR]!.address.toLowerCase();
    const page = await get<ClassicRangePage>(
      `/classic/range?contractAddress=${drop}&limit=100&sortBy=tokenId&sortOrder=asc`,
    );
    expect(page.status).toBe(200);
    return page.body.boosterBoxes
      .filter((pack) => pack.owner === collector)
      .map((pack) => ({ tokenId: pack.tokenIdString, owner: pack.owner, status: pack.status }));
  };
  /** The same, from the contract: every pack the collector owns. */
  const chainCollectorPacks = async (ids: bigint[]) => {
    const collector = chain.clients.accounts[COLLECTOR]!.address.toLowerCase();
    const owners = await Promise.all(
      ids.map((tokenId) =>
        publicClient().readContract({
          address: drop,
          abi: boosterDropAbi,
          functionName: "ownerOf",
          args: [tokenId],
        }),
      ),
    );
    return ids
      .filter((_, i) => owners[i]!.toLowerCase() === collector)
      .map((tokenId) => ({ tokenId: tokenId.toString(), owner: collector, status: "minted" }));
  };
  /** Packs minted on the chain, every game of the factory. */
  const chainPacksMinted = async () => {
    const factory = chain.deployment.contracts["DropFactory"]!.address;
    const count = await publicClient().readContract({
      address: factory,
      abi: dropFactoryAbi,
      functionName: "gameCount",
    });
    let total = 0n;
    for (let gameId = 1n; gameId <= count; gameId++) {
      const [address] = await publicClient().readContract({
        address: factory,
        abi: dropFactoryAbi,
        functionName: "games",
        args: [gameId],
      });
      const onDrop = { address, abi: boosterDropAbi } as const;
      const [first, next] = await Promise.all([
        publicClient().readContract({ ...onDrop, functionName: "firstTokenId" }),
        publicClient().readContract({ ...onDrop, functionName: "nextTokenId" }),
      ]);
      total += next - first;
    }
    return Number(total);
  };
  const platformPacksMinted = async () => (await get<ClassicStats>("/classic/stats")).body.stats.packsMinted;

  beforeAll(async () => {
    chain = await setupDevChain(8453, { metadataBaseUrl: `${PUBLIC_URL}/classic/metadata/` });
    const factory = chain.deployment.contracts["DropFactory"]!.address;
    [drop] = await publicClient().readContract({
      address: factory,
      abi: dropFactoryAbi,
      functionName: "games",
      args: [1n],
    });
    t = await setupApp({
      deployments: [chain.deployment],
      indexerSkipLog: ({ log }) => skipped.has(log.transactionHash.toLowerCase()),
    });
    ({ publicUrl: baseUrl } = await t.app.listen());
    apiKey = (await t.createKey({ multiplier: 100 })).key;
    client = createMktClient({ baseUrl, apiKey, retry: { attempts: 1 } });
    token = (await client.classic.auth.signIn(testWallet(70))).accessToken;
    await sync();
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await chain?.close();
  });

  it("repairs a mint the indexer skipped, over HTTP, and a second call (SDK) changes nothing", async () => {
    const kept = await mint(1n);
    const lost = await mint(2n);
    skipped.add(lost.hash);
    await sync();

    // The wrong state, and it is cached: the reads lack the skipped mint's packs.
    const expected = await chainCollectorPacks([...kept.ids, ...lost.ids]);
    expect(expected).toHaveLength(3);
    const before = await collectorPacks();
    expect(before).toEqual(expected.filter((pack) => kept.ids.map(String).includes(pack.tokenId)));
    expect(before).toHaveLength(1);
    expect(await platformPacksMinted()).toBe((await chainPacksMinted()) - 2);
    expect(t.app.services.readCache.stats().entries).toBeGreaterThan(0);

    // Repair over HTTP.
    const repaired = await get<ClassicRecovery>(`/classic/events/${lost.hash}`, bearer());
    expect(repaired.status).toBe(200);
    const blockNumber = Number((await publicClient().getTransactionReceipt({ hash: lost.hash })).blockNumber);
    expect(repaired.body).toMatchObject({
      success: true,
      receiptFound: true,
      txHash: lost.hash,
      chainId: 8453,
      blockNumber,
      status: "applied",
    });
    // Every log of the drop in the receipt is listed, in order, each applied now.
    const dropLogs = lost.logs.filter((log) => log.address.toLowerCase() === drop.toLowerCase());
    expect(repaired.body.events.filter((event) => event.contractAddress === drop.toLowerCase())).toEqual(
      dropLogs.map((log) =>
        expect.objectContaining({ logIndex: log.logIndex, contractKind: "drop", applied: true }),
      ),
    );
    expect(repaired.body.events.map((event) => event.type)).toContain("BoosterDropsMinted");
    expect(repaired.body.applied).toBe(repaired.body.events.length);
    expect(repaired.body.applied).toBeGreaterThan(0);

    // The cached reads moved: they now match the chain.
    expect(await collectorPacks()).toEqual(expected);
    expect(await platformPacksMinted()).toBe(await chainPacksMinted());

    // A second call, through the SDK: nothing applied, nothing changed.
    const again = await client.classic.tools.recover(lost.hash);
    expect(again).toMatchObject({ status: "already_indexed", applied: 0, blockNumber, txHash: lost.hash });
    expect(again.events.map((event) => event.logIndex)).toEqual(
      repaired.body.events.map((event) => event.logIndex),
    );
    expect(again.events.every((event) => !event.applied)).toBe(true);
    expect(await collectorPacks()).toEqual(expected);
    expect(await platformPacksMinted()).toBe(await chainPacksMinted());

    // A transaction the indexer did index: already indexed, nothing applied.
    expect(await client.classic.tools.recover(kept.hash)).toMatchObject({
      status: "already_indexed",
      applied: 0,
    });
  });

  it("answers pending for a block the indexer has not reached, and not_classic for a plain transfer", async () => {
    const ahead = await mint(1n);
    const pending = await client.classic.tools.recover(ahead.hash);
    expect(pending).toMatchObject({ status: "pending", applied: 0 });
    expect(pending.events.length).toBeGreaterThan(0);
    expect(pending.events.every((event) => !event.applied)).toBe(true);
    await sync();
    expect(await client.classic.tools.recover(ahead.hash)).toMatchObject({
      status: "already_indexed",
      applied: 0,
    });

    const hash = await chain.clients.wallet(COLLECTOR).sendTransaction({
      to: chain.clients.accounts[3]!.address,
      value: 1n,
    });
    await waitForSuccess(publicClient(), hash);
    expect(await client.classic.tools.recover(hash)).toMatchObject({
      status: "not_classic",
      applied: 0,
      events: [],
    });
  });

  it("refuses an unknown hash (404), a malformed one (400), no bearer (401), no key (429)", async () => {
    const unknown = `0x${"ab".repeat(32)}`;
    const missing = await get<{ success: boolean; error: string }>(`/classic/events/${unknown}`, bearer());
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ success: false, error: "TRANSACTION_NOT_FOUND" });
    const thrown = await client.classic.tools.recover(unknown).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(MktApiError);
    expect((thrown as MktApiError).status).toBe(404);
    expect((thrown as MktApiError).code).toBe("TRANSACTION_NOT_FOUND");

    const malformed = await get<{ error: string }>("/classic/events/0x1234", bearer());
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toBe("VALIDATION_ERROR");
    const anonymous = await get<{ error: string }>(`/classic/events/${unknown}`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error).toBe("UNAUTHORIZED");
    const keyless = await get<{ error: string }>(`/classic/events/${unknown}`, {
      authorization: `Bearer ${token}`,
    });
    expect(keyless.status).toBe(429);
    expect(keyless.body.error).toBe("RATE_LIMITED");
  });

  it("answers a duplicate report with the document's 429 (DUPLICATE_REPORT)", async () => {
    const first = await client.classic.tools.report(
      { contractAddress: drop },
      "spam",
      "the same art as another game",
    );
    expect(first.report).toMatchObject({ status: "open", reason: "spam" });
    expect(first.report.target).toEqual({
      chainId: 8453,
      contractAddress: drop.toLowerCase(),
      tokenId: null,
    });
    const duplicate = await client.classic.tools
      .report({ contractAddress: drop }, "scam")
      .catch((e: unknown) => e);
    expect(duplicate).toBeInstanceOf(MktApiError);
    expect((duplicate as MktApiError).status).toBe(429);
    expect((duplicate as MktApiError).code).toBe("DUPLICATE_REPORT");
    expect((duplicate as MktApiError).body).toMatchObject({ success: false, error: "DUPLICATE_REPORT" });
  });
});
