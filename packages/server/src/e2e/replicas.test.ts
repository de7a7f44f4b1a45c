import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeChainConfig } from "@mkt/chain";
import { classicSignInMessage, type ReleaseActionInput, releaseActionMessage } from "@mkt/protocol";
import type { EventSourceMessage } from "eventsource-parser";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { signEnvelope, testWallet } from "../_test/accounts.ts";
import { insertClassicGame } from "../_test/classic.ts";
import { postgresOnly, setupDatabase, type TestDatabase } from "../_test/database.ts";
import { setupDevChain, type TestChain } from "../_test/dev-chain.ts";
import { type NpmScript, runNpmScript } from "../_test/npm-script.ts";
import { type RoundRobin, startRoundRobin } from "../_test/round-robin.ts";
import { openStream, type TestStream } from "../_test/sse.ts";

/**
 * Three replicas of `npm start`'s process (packages/server/src/main.ts), each
 * its own operating-system process, on one PostgreSQL database, behind a
 * round-robin TCP proxy, following two dev chains (described to them with
 * MKT_CONFIG, as real chains are, so one replica indexes and the others
 * serve), with load driven through the proxy while the assertions run.
 */

const ADMIN_TOKEN = "replicas-admin-token-0123456789abcdef";
const REPLICAS = 3;
const GAME = "0x00000000000000000000000000000000000c4a70";
/** The documented bound for a change on one replica to reach every other (operations.md, CONTRACT.md). */
const ACROSS_REPLICAS_MS = 1_000;

interface Replica {
  script: NpmScript;
  publicUrl: string;
  adminUrl: string;
}

/** What `POST /classic/chat/{game}` answers. */
type ChatPosted = { message: { id: string } };

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json<T = Record<string, unknown>>(): T;
}

/** One HTTP request on a connection of its own (through the proxy: the next replica in turn). */
function call(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: options.method ?? "GET",
        agent: false,
        headers: {
          ...(payload === undefined ? {} : { "content-type": "application/json" }),
          ...options.headers,
        },
      },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body,
            json: <T>() => JSON.parse(body) as T,
          }),
        );
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(payload);
  });
}

/** A replica as an operator starts one: `npm start` with its environment. */
async function startReplica(env: Record<string, string>): Promise<Replica> {
  const script = runNpmScript("start", env);
  const [, publicUrl, adminUrl] = await script.waitFor(/listening on\s+(\S+)[\s\S]*operator\s+(\S+)/);
  return { script, publicUrl: publicUrl!, adminUrl: adminUrl! };
}

const portOf = (url: string) => Number(new URL(url).port);
const dataOf = (event: EventSourceMessage) => JSON.parse(event.data) as Record<string, unknown>;

let database: TestDatabase;
let chains: TestChain[] = [];
let proxy: RoundRobin;
let replicas: Replica[] = [];
let dataDir: string;
const streams: TestStream[] = [];
let mining: { stop(): Promise<void> } | undefined;
let load: { stop(): Promise<Map<string, number>> } | undefined;

const admin = (replica: Replica, method: string, path: string, body?: unknown) =>
  call(`${replica.adminUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    ...(body === undefined ? {} : { body }),
  });

/** A key made through the proxy, its multiplier raised on the operator listener of replica 0. */
async function createKey(multiplier: number): Promise<{ id: string; key: string }> {
  const created = await call(`${proxy.url}/keys`, {
    method: "POST",
    body: { description: "replicas test", email: "dev@example.com" },
  });
  expect(created.status, created.body).toBe(201);
  const key = created.json<{ id: string; key: string }>();
  if (multiplier !== 1)
    expect((await admin(replicas[0]!, "PATCH", `/admin/keys/${key.id}`, { multiplier })).status).toBe(200);
  return key;
}

/** A signed release action of dev wallet `index`, sent to `baseUrl`. */
async function releaseAction(baseUrl: string, apiKey: string, index: number, action: ReleaseActionInput) {
  const fields = {
    address: testWallet(index).address.toLowerCase(),
    nonce: randomUUID(),
    expires: Date.now() + 60_000,
  };
  const signature = await testWallet(index).signMessage({
    message: releaseActionMessage({ ...fields, action }),
  });
  const answer = await call(`${baseUrl}/market/releases`, {
    method: "POST",
    headers: { "api-key": apiKey },
    body: { ...fields, action, signature },
  });
  // 201 for a new release, 200 for an action on one.
  expect(answer.status, answer.body).toBe(action.kind === "create" ? 201 : 200);
  return answer.json<{ id: string; revision: number }>();
}

const draft = (baseUrl: string, apiKey: string, index: number) =>
  releaseAction(baseUrl, apiKey, index, {
    kind: "create",
    draft: { name: "Replica owls", symbol: "OWL", image: "https://img.mkt.test/owl.png", design: {} },
  });

/** Signs dev wallet `index` in to the classic API through `baseUrl`: the headers of its chat posts. */
async function classicSignIn(baseUrl: string, apiKey: string, index: number) {
  const wallet = testWallet(index);
  const fields = {
    address: wallet.address.toLowerCase(),
    chainId: 8453,
    nonce: randomUUID(),
    expires: Date.now() + 60_000,
  };
  const signature = await wallet.signMessage({ message: classicSignInMessage(fields) });
  const answer = await call(`${baseUrl}/classic/auth/sign-in`, {
    method: "POST",
    headers: { "api-key": apiKey },
    body: { ...fields, signature },
  });
  expect(answer.status, answer.body).toBe(200);
  return { "api-key": apiKey, authorization: `Bearer ${answer.json<{ accessToken: string }>().accessToken}` };
}

/** Mines a block on each chain every `intervalMs`, so the indexer commits and the feed stays fresh. */
function startMining(intervalMs: number) {
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      for (const chain of chains) await chain.mine(1);
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

/**
 * Steady reads through the proxy by a few workers, each request on a connection of its own, so
 * they rotate over the replicas; answers the count of each `route status`.
 */
function startLoad(apiKey: string, workers: number) {
  const routes = [
    "/market/api-key?bucket=read",
    "/market/runtime",
    "/market/releases",
    "/classic/games",
    "/classic/unboxing-disallowed",
    "/predict/v9/markets",
    "/predict/v9/runtime",
  ];
  const counts = new Map<string, number>();
  let stopped = false;
  const worker = async (offset: number) => {
    for (let i = offset; !stopped; i++) {
      const route = routes[i % routes.length]!;
      const answer = await call(`${proxy.url}${route}`, { headers: { "api-key": apiKey } }).catch(() => ({
        status: 0,
      }));
      const label = `${route.split("?")[0]} ${answer.status}`;
      counts.set(label, (counts.get(label) ?? 0) + 1);
    }
  };
  const running = Array.from({ length: workers }, (_, offset) => worker(offset));
  return {
    async stop() {
      stopped = true;
      await Promise.all(running);
      return counts;
    },
  };
}

postgresOnly.describe("three replicas behind a round-robin proxy", () => {
  beforeAll(async () => {
    database = await setupDatabase();
    chains = [await setupDevChain(8453), await setupDevChain(4663)];
    dataDir = mkdtempSync(join(tmpdir(), "mkt-replicas-"));
    const configPath = join(dataDir, "chains.json");
    await writeChainConfig(
      configPath,
      chains.map((chain) => chain.deployment),
    );
    proxy = await startRoundRobin();
    replicas = await Promise.all(
      Array.from({ length: REPLICAS }, (_, index) =>
        startReplica({
          DATABASE_URL: database.url!,
          MKT_CONFIG: configPath,
          MKT_DATA_DIR: join(dataDir, `replica-${index}`),
          PORT: "0",
          ADMIN_PORT: "0",
          ADMIN_TOKEN,
          // The replicas' public address is the balancer's: links and the sign-in origin name it.
          PUBLIC_URL: proxy.url,
          ETH_USD_PRICE: "3000",
          LOG_LEVEL: "warn",
          LOG_FORMAT: "json",
        }),
      ),
    );
    proxy.setBackends(replicas.map((replica) => portOf(replica.publicUrl)));
    await insertClassicGame(database.db, { address: GAME, gameId: 7n, nftName: "Replica Owls" });
    mining = startMining(1_000);
  }, 240_000);

  afterAll(async () => {
    await load?.stop();
    await mining?.stop();
    for (const stream of streams) stream.close();
    await Promise.all(replicas.map((replica) => replica.script.stop()));
    await proxy?.close();
    for (const chain of chains) await chain.close();
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it("deliver every live event to the streams of every replica, in the same order with the same ids", async () => {
    const key = (await createKey(100)).key;
    // The indexer (on whichever replica holds its scope's lock) has caught up: the feed is fresh.
    await vi.waitFor(
      async () =>
        expect((await call(`${proxy.url}/predict/v9/markets`, { headers: { "api-key": key } })).status).toBe(
          200,
        ),
      { timeout: 60_000, interval: 250 },
    );
    const kinds = ["/market/live", "/predict/v9/stream", `/classic/chat/${GAME}/stream`] as const;
    const opened: Record<(typeof kinds)[number], TestStream[]> = {
      "/market/live": [],
      "/predict/v9/stream": [],
      [`/classic/chat/${GAME}/stream`]: [],
    };
    // Opened one at a time with nothing else going through the proxy: connection n goes to replica n % 3.
    const first = proxy.accepted.length;
    for (const kind of kinds) {
      for (let replica = 0; replica < REPLICAS; replica++) {
        const stream = await openStream(`${proxy.url}${kind}`, { "api-key": key });
        expect(stream.status, stream.body).toBe(200);
        await stream.next((event) => event.event === "ready");
        streams.push(stream);
        opened[kind].push(stream);
      }
    }
    expect(proxy.accepted.slice(first)).toEqual([0, 1, 2, 0, 1, 2, 0, 1, 2].map((n) => (n + first) % 3));
    load = startLoad(key, 3);

    // A release announced, a chat message posted, through the proxy; the chains keep mining.
    const release = await draft(proxy.url, key, 11);
    const announced = await releaseAction(proxy.url, key, 11, {
      kind: "announce",
      releaseId: release.id,
      revision: release.revision,
      launchAt: Date.now() + 86_400_000,
    });
    const poster = await classicSignIn(proxy.url, key, 12);
    const posted = await call(`${proxy.url}/classic/chat/${GAME}`, {
      method: "POST",
      headers: poster,
      body: { text: "hello every replica" },
    });
    expect(posted.status, posted.body).toBe(201);
    // The last events each stream waits for: a second announcement, a second message, and a head
    // of the feed past the block mined now.
    await chains[1]!.mine(1);
    const feedBlock = Number(await chains[1]!.clients.publicClient.getBlockNumber());
    // A market head inside every market stream's window: the indexer commits a block mined now
    // before the last announcement is made (the miner alone may not commit one in time).
    await chains[0]!.mine(1);
    const marketBlock = Number(await chains[0]!.clients.publicClient.getBlockNumber());
    await Promise.all(
      opened["/market/live"].map((stream) =>
        stream.next((event) => event.event === "head" && Number(dataOf(event)["nextBlock"]) > marketBlock),
      ),
    );
    const last = await releaseAction(proxy.url, key, 11, {
      kind: "reschedule",
      releaseId: release.id,
      revision: announced.revision,
      launchAt: Date.now() + 2 * 86_400_000,
    });
    const lastPost = await call(`${proxy.url}/classic/chat/${GAME}`, {
      method: "POST",
      headers: poster,
      body: { text: "goodbye every replica" },
    });
    expect(lastPost.status, lastPost.body).toBe(201);

    const markers: Record<(typeof kinds)[number], (event: EventSourceMessage) => boolean> = {
      "/market/live": (event) => event.event === "release" && dataOf(event)["revision"] === last.revision,
      "/predict/v9/stream": (event) =>
        event.event === "head" && Number(dataOf(event)["finalizedBlock"]) >= feedBlock - 3,
      [`/classic/chat/${GAME}/stream`]: (event) =>
        event.event === "message" && dataOf(event)["id"] === lastPost.json<ChatPosted>().message.id,
    };
    for (const kind of kinds) {
      const ends = await Promise.all(opened[kind].map((stream) => stream.next(markers[kind])));
      // Every replica's stream: the same events, with the same ids, between the last `ready` of
      // the three and the marker (events before that may predate a stream's opening).
      const from = Math.max(
        ...opened[kind].map((stream) => Number(stream.events.find((e) => e.event === "ready")!.id ?? 0)),
      );
      const through = Number(ends[0]!.id);
      expect(ends.map((end) => Number(end.id))).toEqual([through, through, through]);
      const window = (stream: TestStream) =>
        stream.events
          .filter((event) => event.id !== undefined && Number(event.id) > from && Number(event.id) <= through)
          .map((event) => ({ id: event.id, event: event.event, data: event.data }));
      const seen = opened[kind].map(window);
      expect(seen[1]).toEqual(seen[0]);
      expect(seen[2]).toEqual(seen[0]);
      const names = seen[0]!.map((event) => event.event);
      if (kind === "/market/live") {
        expect(
          seen[0]!.filter((event) => event.event === "release").map((event) => JSON.parse(event.data)),
        ).toEqual([
          { releaseId: release.id, revision: announced.revision, status: "announced" },
          { releaseId: release.id, revision: last.revision, status: "announced" },
        ]);
        expect(names).toContain("head");
      } else if (kind === "/predict/v9/stream") {
        expect(names).toContain("head");
      } else {
        expect(
          seen[0]!
            .filter((event) => event.event === "message")
            .map((event) => dataOf(event as EventSourceMessage)["id"]),
        ).toEqual([posted.json<ChatPosted>().message.id, lastPost.json<ChatPosted>().message.id]);
      }
    }
  }, 120_000);

  it("a key revoked on one replica is refused by every replica within a second, and its streams end", async () => {
    const { id, key } = await createKey(100);
    const direct = replicas.map((replica) => replica.publicUrl);
    // Every replica has the key in its cache, and a stream open with it.
    for (const url of direct) {
      const answer = await call(`${url}/market/api-key?bucket=read`, { headers: { "api-key": key } });
      expect(answer.status).toBe(204);
    }
    const held = await Promise.all(direct.map((url) => openStream(`${url}/market/live`, { "api-key": key })));
    streams.push(...held);
    for (const stream of held) await stream.next((event) => event.event === "ready");

    const revokedAt = Date.now();
    expect((await admin(replicas[1]!, "PATCH", `/admin/keys/${id}`, { revoked: true })).status).toBe(200);
    const refusedAfter = await Promise.all(
      direct.map(async (url) => {
        await vi.waitFor(
          async () =>
            expect(
              (await call(`${url}/market/api-key?bucket=read`, { headers: { "api-key": key } })).status,
            ).toBe(401),
          { timeout: ACROSS_REPLICAS_MS, interval: 10 },
        );
        return Date.now() - revokedAt;
      }),
    );
    expect(refusedAfter.every((ms) => ms <= ACROSS_REPLICAS_MS)).toBe(true);
    for (const stream of held) {
      const end = await stream.next((event) => event.event === "end");
      expect(dataOf(end)).toEqual({ reason: "key-revoked" });
      await stream.ended;
    }
  }, 60_000);

  it("move every replica's cached reads when one replica changes the data", async () => {
    const { id, key } = await createKey(100);
    const direct = replicas.map((replica) => replica.publicUrl);
    const headers = { "api-key": key };
    const onEvery = (check: (url: string) => Promise<void>) =>
      Promise.all(
        direct.map((url) => vi.waitFor(() => check(url), { timeout: ACROSS_REPLICAS_MS, interval: 10 })),
      );

    // The key cache: a multiplier changed on replica 2 is the budget of every replica.
    expect(
      (await call(`${direct[0]}/market/api-key?bucket=read`, { headers })).headers["ratelimit-limit"],
    ).toBe("10000");
    for (const url of direct) await call(`${url}/market/api-key?bucket=read`, { headers });
    expect((await admin(replicas[2]!, "PATCH", `/admin/keys/${id}`, { multiplier: 7 })).status).toBe(200);
    await onEvery(async (url) =>
      expect((await call(`${url}/market/api-key?bucket=read`, { headers })).headers["ratelimit-limit"]).toBe(
        "700",
      ),
    );

    // The read cache (release reads are kept 30 s): a release action on replica 0.
    const release = await draft(direct[0]!, key, 13);
    const announced = await releaseAction(direct[0]!, key, 13, {
      kind: "announce",
      releaseId: release.id,
      revision: release.revision,
      launchAt: Date.now() + 86_400_000,
    });
    const readRelease = (url: string) => call(`${url}/market/releases/${release.id}`, { headers });
    for (const url of direct)
      expect((await readRelease(url)).json()).toMatchObject({ revision: announced.revision });
    const rescheduled = await releaseAction(direct[0]!, key, 13, {
      kind: "reschedule",
      releaseId: release.id,
      revision: announced.revision,
      launchAt: Date.now() + 3 * 86_400_000,
    });
    await onEvery(async (url) =>
      expect((await readRelease(url)).json()).toMatchObject({ revision: rescheduled.revision }),
    );

    // An operator switch (the read cache of the classic settings) flipped on replica 1.
    const unboxing = (url: string) => call(`${url}/classic/unboxing-disallowed`, { headers });
    for (const url of direct) expect((await unboxing(url)).json()).toEqual({ disallowed: false });
    expect(
      (await admin(replicas[1]!, "PUT", "/admin/classic/unboxing-disallowed", { disallowed: true })).status,
    ).toBe(200);
    await onEvery(async (url) => expect((await unboxing(url)).json()).toEqual({ disallowed: true }));
    await admin(replicas[1]!, "PUT", "/admin/classic/unboxing-disallowed", { disallowed: false });

    // The prediction feed's switches, kept in memory by every replica: off on replica 0, then on.
    const markets = (url: string) => call(`${url}/predict/v9/markets`, { headers });
    for (const url of direct) expect((await markets(url)).status).toBe(200);
    expect((await admin(replicas[0]!, "PUT", "/admin/predict/runtime", { enabled: false })).status).toBe(200);
    await onEvery(async (url) => expect((await markets(url)).status).toBe(503));
    expect((await admin(replicas[0]!, "PUT", "/admin/predict/runtime", { enabled: true })).status).toBe(200);
    await onEvery(async (url) => expect((await markets(url)).status).toBe(200));

    // The session cache: a market session signed out on replica 2 is refused by every replica.
    const origin = new URL(proxy.url).origin;
    const envelope = await signEnvelope(testWallet(14), { now: Date.now(), origin });
    const signedIn = await call(`${direct[0]}/market/account/session`, {
      method: "POST",
      headers: { ...headers, origin },
      body: envelope,
    });
    expect(signedIn.status, signedIn.body).toBe(200);
    const session = {
      ...headers,
      authorization: `Bearer ${signedIn.json<{ token: string }>().token}`,
      origin,
      "x-mkt-wallet": envelope.address,
    };
    for (const url of direct)
      expect((await call(`${url}/market/account/session`, { headers: session })).status).toBe(200);
    expect(
      (await call(`${direct[2]}/market/account/session`, { method: "DELETE", headers: session })).status,
    ).toBe(204);
    await onEvery(async (url) =>
      expect((await call(`${url}/market/account/session`, { headers: session })).status).toBe(401),
    );
  }, 60_000);

  it("count the market budgets per replica and the classic chat's posts across replicas, as documented", async () => {
    const { key } = await createKey(1);
    const direct = replicas.map((replica) => replica.publicUrl);
    const reserve = (url: string) =>
      call(`${url}/market/api-key?bucket=read`, { headers: { "api-key": key } });
    // read: 100 per minute per key per replica.
    const remaining: string[] = [];
    for (let i = 0; i < 100; i++) {
      const answer = await reserve(direct[0]!);
      expect(answer.status).toBe(204);
      remaining.push(String(answer.headers["ratelimit-remaining"]));
    }
    expect(remaining.at(-1)).toBe("0");
    expect((await reserve(direct[0]!)).status).toBe(429);
    for (const url of direct.slice(1)) {
      const answer = await reserve(url);
      expect(answer.status).toBe(204);
      expect(answer.headers["ratelimit-remaining"]).toBe("99");
    }

    // The classic chat: 10 posts per account per minute, counted across replicas.
    const chatKey = (await createKey(100)).key;
    const poster = await classicSignIn(direct[0]!, chatKey, 15);
    const post = (url: string, n: number) =>
      call(`${url}/classic/chat/${GAME}`, { method: "POST", headers: poster, body: { text: `post ${n}` } });
    for (let n = 0; n < 10; n++) expect((await post(direct[n % REPLICAS]!, n)).status).toBe(201);
    for (const url of direct) expect((await post(url, 10)).status).toBe(429);
  }, 60_000);

  it("served the load through the proxy on every replica without a server error", async () => {
    const counts = await load!.stop();
    load = undefined;
    // 503 only from the prediction feed while its switch was off.
    const failures = [...counts.entries()].filter(
      ([label]) => !/ (200|204)$/.test(label) && label !== "/predict/v9/markets 503",
    );
    expect(failures).toEqual([]);
    // Every route was answered, again and again.
    const answered = (route: string) => (counts.get(`${route} 200`) ?? 0) + (counts.get(`${route} 204`) ?? 0);
    for (const route of ["/market/api-key", "/market/runtime", "/market/releases", "/classic/games"])
      expect(answered(route)).toBeGreaterThan(3);
    for (const route of ["/classic/unboxing-disallowed", "/predict/v9/markets", "/predict/v9/runtime"])
      expect(answered(route)).toBeGreaterThan(3);
    const served = [0, 1, 2].map((index) => proxy.accepted.filter((backend) => backend === index).length);
    expect(Math.min(...served)).toBeGreaterThan(10);
  });
});
