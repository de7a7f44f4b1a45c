import { randomUUID } from "node:crypto";
import {
  classicErrorSchema,
  marketErrorSchema,
  predictErrorSchema,
  type ReleaseActionInput,
  releaseActionMessage,
} from "@mkt/protocol";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { accountAction, type SignedIn, signIn, testWallet } from "../_test/accounts.ts";
import { setupApp, type TestApp } from "../_test/app.ts";
import { type ClassicSignedIn, signInClassic } from "../_test/classic.ts";
import { onPostgres, postgresOnly, type TestDatabase } from "../_test/database.ts";
import { setupDevChain, type TestChain } from "../_test/dev-chain.ts";
import { type PrivateCluster, privateClusterSkipReason, startPrivateCluster } from "../_test/pg-cluster.ts";
import { PREDICT_TEST_DEPLOYMENT, setPredictHead } from "../_test/predict.ts";
import { expectProjectionMatchesChain } from "../_test/projection-check.ts";
import { type Database, migrate, openDatabase } from "../db/index.ts";

/**
 * PostgreSQL goes away under load and comes back, on a private cluster this
 * test may stop (never the shared server DATABASE_URL names): two replicas
 * take writes and reads throughout. While it is down every request that needs
 * it is a 503 with `Retry-After` in its surface's own body, never cacheable;
 * every write answered 2xx is in the database afterwards; both replicas
 * recover on their own (pool, LISTEN, indexer), without a restart.
 */

const clusterSkip = onPostgres ? privateClusterSkipReason() : undefined;

type Surface = "market" | "classic" | "predict";
type OpName = "key" | "dm" | "release" | "draft" | "market-read" | "classic-read" | "predict-read";

interface Answer {
  op: OpName;
  replica: "a" | "b";
  status: number;
  headers: Record<string, unknown>;
  body: string;
  phase: "before" | "down" | "after";
}

const errorSchemaOf: Record<Surface, { parse(value: unknown): unknown }> = {
  market: marketErrorSchema,
  classic: classicErrorSchema,
  predict: predictErrorSchema,
};
const surfaceOf: Record<OpName, Surface> = {
  key: "market",
  dm: "market",
  release: "market",
  draft: "classic",
  "market-read": "market",
  "classic-read": "classic",
  "predict-read": "predict",
};
/** What each operation answers when the database is there. */
const okStatus: Record<OpName, number> = {
  key: 201,
  dm: 200,
  release: 201,
  draft: 200,
  // No account holds these addresses: the database says so.
  "market-read": 404,
  "classic-read": 200,
  "predict-read": 200,
};
/** Where each acknowledged write must be found afterwards. */
const ackTable: Partial<Record<OpName, string>> = {
  key: "api_keys",
  dm: "dm_messages",
  release: "releases",
  draft: "classic_drafts",
};
const addressOf = (n: number) => `0x${(n + 1).toString(16).padStart(40, "0")}`;
const OPS: OpName[] = ["key", "dm", "release", "draft", "market-read", "classic-read", "predict-read"];

/** A database on the private cluster, as a test app takes it (each replica its own pool). */
async function clusterDatabase(url: string): Promise<TestDatabase & { db: Database }> {
  const db = await openDatabase({ kind: "postgres", url });
  return { db, url, close: () => db.close() };
}

postgresOnly.describe(
  "faults: PostgreSQL restarted under load",
  () => {
    let cluster: PrivateCluster;
    let chain: TestChain;
    let databases: TestDatabase[] = [];
    let a: TestApp;
    let b: TestApp;
    let apiKey: string;
    let alice: SignedIn;
    let bob: SignedIn;
    let creators: ClassicSignedIn[];

    beforeAll(async () => {
      if (clusterSkip) return;
      cluster = await startPrivateCluster();
      const url = await cluster.createDatabase("mkt_faults");
      const migrator = await openDatabase({ kind: "postgres", url, poolSize: 1 });
      await migrate(migrator);
      // The feed's head row, so that its runtime record is read from the database.
      await setPredictHead(migrator);
      await migrator.close();
      chain = await setupDevChain(8453);
      await chain.simulate(10);
      databases = [await clusterDatabase(url), await clusterDatabase(url)];
      // Both replicas run the indexer; the writer lock lets one of them write at a time.
      const replica = (database: TestDatabase) =>
        setupApp({
          database,
          deployments: [chain.deployment, PREDICT_TEST_DEPLOYMENT],
          devChainIds: [8453],
          indexing: true,
        });
      a = await replica(databases[0]!);
      b = await replica(databases[1]!);
      await a.app.listen();
      await b.app.listen();
      apiKey = (await a.createKey({ multiplier: 1000 })).key;
      alice = await signIn(a, 50, { apiKey });
      bob = await signIn(a, 51, { apiKey });
      creators = await Promise.all(
        [60, 61, 62, 63, 64, 65].map((walletIndex) =>
          signInClassic(a.app.server, { apiKey, walletIndex, now: Date.now() }),
        ),
      );
    }, 180_000);

    afterAll(async () => {
      await a?.close();
      await b?.close();
      for (const database of databases) await database.close();
      await chain?.close();
      await cluster?.dispose();
    }, 60_000);

    /** One request of `op` on a replica, the `n`-th of the run. */
    async function perform(op: OpName, t: TestApp, n: number) {
      const server = t.app.server;
      const key = { "api-key": apiKey };
      switch (op) {
        case "key":
          return server.inject({
            method: "POST",
            url: "/keys",
            // Key creation is budgeted per client IP: one address per request.
            remoteAddress: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
            payload: { description: `fault key ${n}`, email: "ops@example.com" },
          });
        case "dm":
          return accountAction(t, n % 2 === 0 ? alice : bob, {
            kind: "dm",
            to: n % 2 === 0 ? bob.address : alice.address,
            body: `message ${n}`,
          });
        case "release": {
          const wallet = testWallet(30 + (n % 8));
          const action: ReleaseActionInput = {
            kind: "create",
            draft: {
              name: `Fault release ${n}`,
              symbol: "FLT",
              image: "https://img.mkt.test/fault.png",
              design: {
                cardsByRarity: [[{ id: `c${n}`, name: "Card", image: "https://img.mkt.test/c.png" }]],
              },
            },
          };
          const fields = {
            address: wallet.address.toLowerCase(),
            nonce: randomUUID(),
            expires: Date.now() + 60_000,
          };
          const signature = await wallet.signMessage({
            message: releaseActionMessage({ ...fields, action }),
          });
          return server.inject({
            method: "POST",
            url: "/market/releases",
            headers: key,
            payload: { ...fields, action, signature },
          });
        }
        case "draft": {
          const creator = creators[n % creators.length]!;
          return server.inject({
            method: "POST",
            url: "/classic/metadata/draft/poll",
            headers: creator.headers,
            payload: {
              revision: 1,
              creator: creator.address,
              tokenName: "Fault Robots",
              tokenSymbol: "FLT",
              nftName: `Fault Robots ${n}`,
              nftSymbol: "FLTBOX",
              slug: `fault-robots-${n}x`,
              game: { description: "Written while the database restarts." },
              cards: [{ name: "Bolt", rarity: 1, startId: 1, endId: 1 }],
            },
          });
        }
        // Reads of an address never asked before: not in the read cache, so each needs the database.
        case "market-read":
          return server.inject({
            method: "GET",
            url: `/market/creators/${addressOf(n)}`,
            headers: key,
          });
        case "classic-read":
          return server.inject({ method: "GET", url: `/classic/owner/${addressOf(n)}`, headers: key });
        case "predict-read":
          return server.inject({ method: "GET", url: "/predict/v9/runtime", headers: key });
      }
    }

    const idOf = (op: OpName, body: string): string => {
      const json = JSON.parse(body) as Record<string, unknown>;
      if (op === "dm") return String((json["result"] as { id: string }).id);
      if (op === "draft") return (json["draft"] as { draftId: string }).draftId;
      return String(json["id"]);
    };

    /** Numbers every request of the file: each key creation comes from an address of its own. */
    let sequence = 0;
    // `immediate` is a crash (every backend killed at once, the WAL replayed at the next start);
    // `fast` a planned restart (clients told, open transactions rolled back, a checkpoint written).

    it.for(["immediate", "fast"] as const)(
      "PostgreSQL %s: fails closed with 503 and Retry-After, loses no acknowledged write, and recovers without a restart",
      { timeout: 300_000 },
      async (mode, ctx) => {
        if (clusterSkip) return ctx.skip(clusterSkip);
        const answers: Answer[] = [];
        let phase: Answer["phase"] = "before";
        let stopping = false;
        const record = async (op: OpName, replica: "a" | "b") => {
          const n = sequence++;
          const response = await perform(op, replica === "a" ? a : b, n);
          const answer: Answer = {
            op,
            replica,
            status: response.statusCode,
            headers: response.headers,
            body: response.body,
            phase,
          };
          answers.push(answer);
          return answer;
        };
        // Six clients, each a loop over every operation on alternating replicas.
        const worker = async (offset: number) => {
          for (let i = offset; !stopping; i++) {
            await record(OPS[i % OPS.length]!, i % 2 === 0 ? "a" : "b");
          }
        };
        const workers = [0, 1, 2, 3, 4, 5].map((offset) => worker(offset * 3));
        const acknowledged = (since: Answer["phase"]) =>
          answers.filter((answer) => answer.phase === since && answer.status === okStatus[answer.op]);

        try {
          await vi.waitFor(() => expect(acknowledged("before").length).toBeGreaterThan(40), {
            timeout: 60_000,
            interval: 50,
          });

          await cluster.stop(mode);
          phase = "down";
          // Every request that needs the database, on either replica, is refused now.
          for (const op of OPS) {
            for (const replica of ["a", "b"] as const) {
              await vi.waitFor(
                async () => {
                  const answer = await record(op, replica);
                  expect({ op, replica, status: answer.status }).toEqual({ op, replica, status: 503 });
                },
                { timeout: 10_000, interval: 100 },
              );
            }
          }
          // A key no replica has cached cannot be checked: refused as unavailable, never as invalid
          // (401, or the classic and prediction APIs' 429), even on routes a cached answer would serve.
          const unchecked = answers.find((answer) => answer.op === "key" && answer.status === 201)!;
          const uncheckedKey = (JSON.parse(unchecked.body) as { key: string }).key;
          for (const [surface, url] of [
            ["market", "/market/runtime"],
            ["classic", "/classic/games"],
            ["predict", "/predict/v9/runtime"],
          ] as const) {
            for (const t of [a, b]) {
              const refused = await t.app.server.inject({
                method: "GET",
                url,
                headers: { "api-key": uncheckedKey },
              });
              expect({ url, status: refused.statusCode }).toEqual({ url, status: 503 });
              expect(refused.headers["retry-after"]).toBe("1");
              expect(refused.headers["cache-control"]).toBe("no-store");
              errorSchemaOf[surface].parse(refused.json());
            }
          }
          await vi.waitFor(
            () => expect(answers.filter((answer) => answer.phase === "down").length).toBeGreaterThan(60),
            { timeout: 30_000, interval: 50 },
          );

          await cluster.start();
          phase = "after";
          // Both replicas serve every operation again on their own.
          await vi.waitFor(
            () => {
              const served = new Set(acknowledged("after").map((answer) => `${answer.op} ${answer.replica}`));
              expect([...served].sort()).toEqual(OPS.flatMap((op) => [`${op} a`, `${op} b`]).sort());
            },
            { timeout: 60_000, interval: 100 },
          );
        } finally {
          stopping = true;
          await Promise.all(workers);
        }

        // Nothing but the operation's own 2xx or a 503.
        const unexpected = answers.filter(
          (answer) => answer.status !== okStatus[answer.op] && answer.status !== 503,
        );
        expect(
          unexpected.map(({ op, replica, status, body, phase }) => ({ op, replica, status, body, phase })),
        ).toEqual([]);
        // Every refusal fails closed: Retry-After, never cacheable, the surface's own error body.
        const refused = answers.filter((answer) => answer.status === 503);
        expect(refused.length).toBeGreaterThan(0);
        for (const answer of refused) {
          expect(Number(answer.headers["retry-after"]), `${answer.op} Retry-After`).toBeGreaterThanOrEqual(1);
          expect(answer.headers["cache-control"], `${answer.op} Cache-Control`).toBe("no-store");
          errorSchemaOf[surfaceOf[answer.op]].parse(JSON.parse(answer.body));
        }
        // Before and after the outage, each kind of request was answered.
        expect(acknowledged("before").length).toBeGreaterThan(0);

        // Every acknowledged write is in the database.
        const db = databases[0]!.db;
        for (const [op, table] of Object.entries(ackTable) as Array<[OpName, string]>) {
          const ids = answers
            .filter((answer) => answer.op === op && answer.status === okStatus[op])
            .map((answer) => idOf(op, answer.body));
          expect(ids.length, `${op} acknowledged`).toBeGreaterThan(0);
          const { rows } = await db.withConnection((c) =>
            c.query<{ id: string }>(`SELECT id::text AS id FROM ${table} WHERE id::text = ANY($1)`, [ids]),
          );
          expect(rows.map((row) => row.id).sort(), `${op}: every acknowledged write is stored`).toEqual(
            [...new Set(ids)].sort(),
          );
        }

        // LISTEN came back on both replicas: a key revoked through one is refused by the other
        // long before its cached copy (30 s) would expire.
        const probe = await a.createKey();
        const asB = () =>
          b.app.server.inject({ method: "GET", url: "/market/runtime", headers: { "api-key": probe.key } });
        expect((await asB()).statusCode).toBe(200);
        expect((await a.admin("PATCH", `/admin/keys/${probe.id}`, { revoked: true })).statusCode).toBe(200);
        await vi.waitFor(async () => expect((await asB()).statusCode).not.toBe(200), {
          timeout: 5_000,
          interval: 50,
        });

        // The indexer resumed: new blocks are indexed, and the projection is the chain's.
        await chain.simulate(10, 2n);
        const latest = await chain.clients.publicClient.getBlockNumber();
        await vi.waitFor(
          async () => {
            const { rows } = await db.withConnection((c) =>
              c.query<{ next: string }>(
                "SELECT min(next_block) AS next FROM indexer_heads WHERE chain_id = 8453",
              ),
            );
            expect(BigInt(rows[0]!.next)).toBeGreaterThanOrEqual(latest + 1n);
          },
          { timeout: 60_000, interval: 100 },
        );
        await expectProjectionMatchesChain(db, chain);
        for (const t of [a, b]) {
          expect((await t.app.server.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);
        }
      },
    );
  },
  "runs two replicas on a PostgreSQL cluster of its own that it restarts: PostgreSQL only; set DATABASE_URL",
);
