import { DEV_ACCOUNT_ROLES, marketAbi, waitForSuccess } from "@mkt/chain";
import {
  PREDICT_POINTS_UNIT,
  type PredictLeaderboard,
  type PredictPoints,
  type PredictPortfolio,
} from "@mkt/protocol";
import { type Address, type Hash, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setupApp, type TestApp } from "../_test/app.ts";
import { setupDevChain, type TestChain } from "../_test/dev-chain.ts";
import { predictTrading } from "../_test/predict-trading.ts";
import { openStream, type TestStream } from "../_test/sse.ts";

const FINALITY_DEPTH = 3;
const CREATOR = DEV_ACCOUNT_ROLES.deployer;
const OPERATOR = DEV_ACCOUNT_ROLES.marketOperator;
const ALICE = DEV_ACCOUNT_ROLES.firstUser;
const BOB = DEV_ACCOUNT_ROLES.firstUser + 1;
const MAX_STREAMS_PER_KEY = 3;

describe("prediction feed stream, portfolio and points on the dev chain", () => {
  let chain: TestChain;
  let t: TestApp;
  let baseUrl: string;
  let apiKey: string;
  let scope: string;
  const markets: Address[] = [];
  const streams: TestStream[] = [];

  const publicClient = () => chain.clients.publicClient;
  const send = async (hash: Promise<Hash>) => waitForSuccess(publicClient(), await hash);
  const addressOf = (index: number) => chain.clients.accounts[index]!.address.toLowerCase() as Address;
  const _weth = () => chain.deployment.contracts["WETH"]!.address as Address;
  const _factory = () => chain.deployment.contracts["MarketFactory"]!.address as Address;
  const syncAll = async () => {
    for (const indexer of t.app.services.indexer!.indexers) await indexer.syncOnce();
  };
  /** Buries the latest block below the finality depth, then indexes. */
  const finalize = async () => {
    await chain.mine(FINALITY_DEPTH + 1);
    await syncAll();
  };
  let trading: ReturnType<typeof predictTrading>;
  const createMarket = async (question: string, seed: bigint, feeBps: bigint) => {
    const { address } = await trading.createMarket(CREATOR, question, seed, feeBps);
    markets.push(address);
    return address;
  };
  const buy = (index: number, market: Address, side: 0 | 1, wethIn: bigint) =>
    trading.buy(index, market, side, wethIn);
  const get = async <T>(url: string, headers: Record<string, string> = { "api-key": apiKey }) => {
    const response = await t.app.server.inject({ method: "GET", url, headers });
    return {
      status: response.statusCode,
      headers: response.headers,
      body: response.body,
      json: () => response.json() as T,
    };
  };
  const open = async (headers: Record<string, string> = {}, path = "/predict/v9/stream") => {
    const stream = await openStream(`${baseUrl}${path}`, { "api-key": apiKey, ...headers });
    streams.push(stream);
    return stream;
  };

  beforeAll(async () => {
    chain = await setupDevChain(4663, { finalityDepth: FINALITY_DEPTH });
    trading = predictTrading(chain);
    t = await setupApp({ deployments: [chain.deployment], live: { maxStreamsPerKey: MAX_STREAMS_PER_KEY } });
    ({ publicUrl: baseUrl } = await t.app.listen());
    apiKey = (await t.createKey({ multiplier: 100 })).key;
    scope = (await get<{ scope: string }>("/predict/v9/runtime")).json().scope;
    await createMarket("Will the first test market resolve yes?", parseEther("1"), 200n);
    await finalize();
  }, 120_000);
  afterAll(async () => {
    for (const stream of streams) stream.close();
    t.app.server.server.closeAllConnections();
    await t.close();
    await chain.close();
  });

  it("lists the feed's scope on the operator listener heading for the chain's last final block", async () => {
    const listed = await t.admin("GET", "/admin/indexer");
    expect(listed.statusCode).toBe(200);
    const { scopes } = listed.json() as { scopes: Array<Record<string, unknown>> };
    const head = scopes.find((candidate) => candidate["scope"] === scope)!;
    const observed = Number(await publicClient().getBlockNumber());
    const projection = t.app.services.indexer!.scopes.find((candidate) => candidate.id === scope)!;
    // Caught up: every final block is indexed, and the lag is the finality depth, not a backlog.
    expect(head).toMatchObject({
      observedHead: observed,
      targetBlock: observed - FINALITY_DEPTH,
      nextBlock: observed - FINALITY_DEPTH + 1,
      lag: FINALITY_DEPTH,
      startBlock: Number(projection.startBlock),
      chainId: 4663,
    });
  });

  it("wakes a stream with `market`, `trade` and `head` once the blocks are indexed", async () => {
    const stream = await open();
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const ready = await stream.next((event) => event.event === "ready");
    expect(JSON.parse(ready.data)).toMatchObject({ resumed: false });

    const market = await createMarket("Will a trade wake the stream?", parseEther("2"), 100n);
    const receipt = await buy(ALICE, market, 0, parseEther("0.25"));
    // Not final yet: nothing of it reaches the stream before the indexer commits it.
    await syncAll();
    await finalize();
    // The commit's events come before its head event (the head row is written last).
    const head = await stream.next(
      (event) =>
        event.event === "head" && JSON.parse(event.data).finalizedBlock >= Number(receipt.blockNumber),
    );
    expect(JSON.parse(head.data)).toMatchObject({ scope });
    const before = stream.events.slice(0, stream.events.indexOf(head)).map((event) => ({
      id: Number(event.id),
      event: event.event,
      data: JSON.parse(event.data) as Record<string, unknown>,
    }));
    const created = before.find((event) => event.event === "market" && event.data["market"] === market);
    expect(created?.data).toMatchObject({ change: "created", state: "active", chainId: 4663 });
    const trades = before.filter((event) => event.event === "trade");
    expect(trades.map((event) => event.data)).toEqual([
      { chainId: 4663, market, kind: "buy", block: receipt.blockNumber.toString() },
    ]);
    expect(Number(head.id)).toBeGreaterThan(trades[0]!.id);
    stream.close();
  });

  it("resumes after Last-Event-ID, and starts with `resync` after a forced gap", async () => {
    const first = await open();
    const ready = await first.next((event) => event.event === "ready");
    const lastId = ready.id!;
    first.close();
    const market = markets[0]!;
    const receipt = await buy(BOB, market, 1, parseEther("0.1"));
    await finalize();

    // Resumed: the trade that happened while disconnected is replayed.
    const resumed = await open({ "last-event-id": lastId });
    expect(JSON.parse((await resumed.next((event) => event.event === "ready")).data)).toMatchObject({
      resumed: true,
    });
    const replayed = await resumed.next((event) => event.event === "trade");
    expect(JSON.parse(replayed.data)).toMatchObject({
      market,
      kind: "buy",
      block: receipt.blockNumber.toString(),
    });
    resumed.close();

    // Unknown id (ahead of every id this database issued).
    const unknown = await open({ "last-event-id": "999999999999" });
    await unknown.next((event) => event.event === "ready");
    const resync = await unknown.next();
    expect(resync.event).toBe("resync");
    expect(JSON.parse(resync.data)).toEqual({ reason: "unknown" });
    unknown.close();

    // Too old: the log was pruned past the id.
    const newest = await t.db.withConnection((c) =>
      c.query<{ id: string }>("SELECT max(id)::text AS id FROM live_events"),
    );
    await t.db.withConnection((c) =>
      c.query("UPDATE live_log SET pruned_through = $1", [newest.rows[0]!.id]),
    );
    const expired = await open({ "last-event-id": lastId });
    await expired.next((event) => event.event === "ready");
    const gap = await expired.next();
    expect(gap.event).toBe("resync");
    expect(JSON.parse(gap.data)).toEqual({ reason: "expired" });
    expired.close();
  });

  it("sends `resync` when the finalized head moves back, `head` when it moves on", async () => {
    const stream = await open();
    await stream.next((event) => event.event === "ready");
    await t.db.withConnection((c) =>
      c.query(
        "UPDATE indexer_heads SET next_block = next_block - 2, revision = revision + 1 WHERE scope = $1",
        [scope],
      ),
    );
    const back = await stream.next((event) => event.event === "resync" || event.event === "head");
    expect(back.event).toBe("resync");
    expect(JSON.parse(back.data)).toEqual({ reason: "reorg" });
    await t.db.withConnection((c) =>
      c.query(
        "UPDATE indexer_heads SET next_block = next_block + 2, revision = revision + 1 WHERE scope = $1",
        [scope],
      ),
    );
    const on = await stream.next((event) => event.event === "resync" || event.event === "head");
    expect(on.event).toBe("head");
    stream.close();
  });

  it("answers a key in the URL exactly like no key: one 429", async () => {
    const noKey = await get("/predict/v9/stream", {});
    const inQuery = await get(`/predict/v9/stream?api-key=${apiKey}&API-KEY=${apiKey}&apiKey=${apiKey}`, {});
    const strip = (headers: Record<string, unknown>) => {
      const { date: _date, "x-request-id": _id, ...rest } = headers;
      return rest;
    };
    expect(noKey.status).toBe(429);
    expect(inQuery.status).toBe(429);
    expect(inQuery.body).toBe(noKey.body);
    expect(JSON.parse(noKey.body)).toMatchObject({ error: "API_KEY_REQUIRED_OR_RATE_LIMITED" });
    expect(strip(inQuery.headers)).toEqual(strip(noKey.headers));
    // The same for a wrong key in the header.
    const wrong = await get("/predict/v9/stream", { "api-key": "mkt_live_wrong" });
    expect(wrong.body).toBe(noKey.body);
  });

  it("caps open streams per key like the market's live updates (shared with /market/live)", async () => {
    // The streams of earlier tests are gone once the server has seen them close.
    await vi.waitFor(() => expect(t.app.services.live.size()).toBe(0), { timeout: 10_000, interval: 20 });
    const open1 = await open();
    const open2 = await open({}, "/market/live");
    const open3 = await open();
    for (const stream of [open1, open2, open3]) expect(stream.status).toBe(200);
    const refused = await open();
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toMatchObject({ error: "API_KEY_REQUIRED_OR_RATE_LIMITED" });
    open1.close();
    await open1.ended;
    // The slot is given back once the server sees the close.
    let again: TestStream | undefined;
    for (let attempt = 0; attempt < 50 && again?.status !== 200; attempt++) {
      again?.close();
      again = await open();
    }
    expect(again?.status).toBe(200);
    for (const stream of [open2, open3, again!]) stream.close();
  });

  it("serves the portfolio as the contracts state it", async () => {
    // A third market, resolved, one holder redeemed and one did not.
    const resolved = await createMarket('Will <b>this</b> & that resolve "yes"?', parseEther("1"), 0n);
    await buy(ALICE, resolved, 0, parseEther("0.3"));
    await buy(BOB, resolved, 0, parseEther("0.2"));
    await buy(ALICE, resolved, 1, parseEther("0.05"));
    await send(
      chain.clients
        .wallet(OPERATOR)
        .writeContract({ address: resolved, abi: marketAbi, functionName: "resolve", args: [0] }),
    );
    await send(
      chain.clients.wallet(BOB).writeContract({ address: resolved, abi: marketAbi, functionName: "redeem" }),
    );
    await finalize();

    for (const owner of [addressOf(ALICE), addressOf(BOB)]) {
      const expected = [];
      for (const market of [...markets].sort()) {
        const read = { address: market, abi: marketAbi } as const;
        const [[yes, no], yesPool, noPool, isResolved, outcome] = await Promise.all([
          publicClient().readContract({ ...read, functionName: "sharesOf", args: [owner] }),
          publicClient().readContract({ ...read, functionName: "poolBalances", args: [0n] }),
          publicClient().readContract({ ...read, functionName: "poolBalances", args: [1n] }),
          publicClient().readContract({ ...read, functionName: "resolved" }),
          publicClient().readContract({ ...read, functionName: "outcome" }),
        ]);
        const redeemed = (
          await publicClient().getContractEvents({
            ...read,
            eventName: "Redeemed",
            args: { owner },
            fromBlock: 0n,
          })
        ).reduce((sum, log) => sum + (log.args.payout ?? 0n), 0n);
        if (yes === 0n && no === 0n && redeemed === 0n) continue;
        const total = yesPool + noPool;
        const redeemable = isResolved ? (Number(outcome) === 0 ? yes : no) : 0n;
        const value = isResolved
          ? redeemable
          : total === 0n
            ? 0n
            : (yes * noPool) / total + (no * yesPool) / total;
        expected.push({ market, yes, no, value, redeemable, redeemed });
      }
      expect(expected.length).toBeGreaterThan(0);
      // One position per page, to walk the cursor.
      const positions: PredictPortfolio["positions"] = [];
      let cursor: string | null = null;
      let totals: PredictPortfolio["totals"] | undefined;
      do {
        const response: { status: number; json: () => PredictPortfolio } = await get<PredictPortfolio>(
          `/predict/v9/portfolio/${owner.toUpperCase().replace("0X", "0x")}?limit=1${cursor ? `&cursor=${cursor}` : ""}`,
        );
        expect(response.status).toBe(200);
        const page: PredictPortfolio = response.json();
        expect(page.address).toBe(owner);
        positions.push(...page.positions);
        totals = page.totals;
        cursor = page.nextCursor;
      } while (cursor !== null);
      expect(
        positions.map((p) => ({
          market: p.market,
          yes: BigInt(p.yesShares),
          no: BigInt(p.noShares),
          value: BigInt(p.valueWeth),
          redeemable: BigInt(p.redeemableWeth),
          redeemed: BigInt(p.redeemedWeth),
        })),
      ).toEqual(expected);
      expect(totals).toEqual({
        positions: expected.length,
        valueWeth: expected.reduce((sum, p) => sum + p.value, 0n).toString(),
        redeemableWeth: expected.reduce((sum, p) => sum + p.redeemable, 0n).toString(),
        redeemedWeth: expected.reduce((sum, p) => sum + p.redeemed, 0n).toString(),
      });
    }
    // Alice holds winning shares of the resolved market; Bob redeemed his.
    const alice = (await get<PredictPortfolio>(`/predict/v9/portfolio/${addressOf(ALICE)}?limit=100`)).json();
    const aliceResolved = alice.positions.find((p) => p.market === resolved)!;
    expect(aliceResolved).toMatchObject({ state: "resolved", outcome: "yes" });
    expect(BigInt(aliceResolved.redeemableWeth)).toBeGreaterThan(0n);
    const bob = (await get<PredictPortfolio>(`/predict/v9/portfolio/${addressOf(BOB)}?limit=100`)).json();
    const bobResolved = bob.positions.find((p) => p.market === resolved)!;
    expect(bobResolved.redeemableWeth).toBe("0");
    expect(BigInt(bobResolved.redeemedWeth)).toBeGreaterThan(0n);
    // The block it reflects is the finalized head.
    const head = await t.db.withConnection((c) =>
      c.query<{ next_block: string; block_hash: string }>(
        "SELECT next_block, block_hash FROM indexer_heads WHERE scope = $1",
        [scope],
      ),
    );
    expect(alice.block.number).toBe((BigInt(head.rows[0]!.next_block) - 1n).toString());
    expect(alice.block.hash).toBe(head.rows[0]!.block_hash);
    // Nobody: an empty portfolio, not 404; a bad address: 400.
    const nobody = (await get<PredictPortfolio>(`/predict/v9/portfolio/0x${"ab".repeat(20)}`)).json();
    expect(nobody.positions).toEqual([]);
    expect(nobody.totals.positions).toBe(0);
    const bad = await get("/predict/v9/portfolio/0x1234");
    expect(bad.status).toBe(400);
    expect(bad.json()).toMatchObject({ error: "INVALID_INPUT" });
  });

  it("counts points by the documented rule from the chain's trade events", async () => {
    const sums = new Map<string, { buy: bigint; sell: bigint; redeem: bigint; n: number }>();
    const sumOf = (trader: string) => {
      let entry = sums.get(trader);
      if (!entry) {
        entry = { buy: 0n, sell: 0n, redeem: 0n, n: 0 };
        sums.set(trader, entry);
      }
      return entry;
    };
    for (const market of markets) {
      const logs = await publicClient().getContractEvents({ address: market, abi: marketAbi, fromBlock: 0n });
      for (const log of logs) {
        if (log.eventName === "Buy") {
          const entry = sumOf(log.args.buyer!.toLowerCase());
          entry.buy += log.args.wethIn!;
          entry.n++;
        } else if (log.eventName === "Sell") {
          const entry = sumOf(log.args.seller!.toLowerCase());
          entry.sell += log.args.wethOut!;
          entry.n++;
        } else if (log.eventName === "Redeemed") {
          const entry = sumOf(log.args.owner!.toLowerCase());
          entry.redeem += log.args.payout!;
          entry.n++;
        }
      }
    }
    expect(sums.size).toBeGreaterThanOrEqual(2);
    const expectedPoints = new Map<string, bigint>();
    for (const [trader, sum] of sums) {
      const points = (sum.buy + sum.sell) / PREDICT_POINTS_UNIT + sum.redeem / PREDICT_POINTS_UNIT;
      expectedPoints.set(trader, points);
      const response = await get<PredictPoints>(`/predict/v9/points/${trader}`);
      expect(response.status).toBe(200);
      expect(response.json()).toMatchObject({
        address: trader,
        points: points.toString(),
        buyWeth: sum.buy.toString(),
        sellWeth: sum.sell.toString(),
        redeemedWeth: sum.redeem.toString(),
        trades: sum.n,
      });
    }
    expect(expectedPoints.get(addressOf(BOB))).toBeGreaterThan(0n);
    const board = (await get<PredictLeaderboard>("/predict/v9/points?limit=100")).json();
    const ranked = [...expectedPoints].sort(([a, x], [b, y]) =>
      x === y ? (a < b ? -1 : 1) : x > y ? -1 : 1,
    );
    expect(board.leaders).toEqual(
      ranked.map(([address, points], i) => ({ rank: i + 1, address, points: points.toString() })),
    );
    const none = (await get<PredictPoints>(`/predict/v9/points/0x${"cd".repeat(20)}`)).json();
    expect(none).toMatchObject({ points: "0", trades: 0 });
  });

  it("answers 503 (no-store) when realtime is not ready", async () => {
    await t.app.services.live.close();
    const refused = await get("/predict/v9/stream");
    expect(refused.status).toBe(503);
    expect(refused.headers["cache-control"]).toBe("no-store");
    expect(refused.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
  });
});
