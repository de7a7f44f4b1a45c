import { Writable } from "node:stream";
import type { CreatedKey } from "@mkt/protocol";
import { type App, type AppOptions, createApp } from "../app.ts";
import { loadConfig } from "../config/index.ts";
import type { Database } from "../db/index.ts";
import { createLogger } from "../logging/index.ts";
import type { Clock } from "../quotas/limiter.ts";
import type { QuotaPolicies } from "../quotas/policies.ts";
import { setupDatabase, type TestDatabase } from "./database.ts";

export const TEST_ADMIN_TOKEN = "test-admin-token-0123456789abcdef";

/** Collects every log line a test app writes, to assert what never appears in them. */
export function createLogCapture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      callback();
    },
  });
  return { stream, lines, text: () => lines.join("\n") };
}

/** A clock tests move by hand. */
export function createManualClock(start = Date.UTC(2026, 10, 25, 12, 0, 0)) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

export interface TestApp {
  app: App;
  db: Database;
  logs: ReturnType<typeof createLogCapture>;
  /** Creates a key through the API (optionally raising its multiplier through the operator API). */
  createKey(options?: { multiplier?: number; ip?: string }): Promise<CreatedKey>;
  admin(
    method: "GET" | "PATCH" | "PUT" | "POST" | "DELETE",
    url: string,
    body?: unknown,
  ): Promise<{ statusCode: number; json(): unknown }>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  clock?: Clock;
  policies?: QuotaPolicies;
  /** Share a database with another test app (a second replica). */
  database?: TestDatabase;
  keyCache?: { positiveTtlMs?: number; negativeTtlMs?: number };
  walletVerifier?: AppOptions["walletVerifier"];
  live?: AppOptions["live"];
  classicImageProxy?: AppOptions["classicImageProxy"];
  /** Chains whose runtimes the market serves and the indexer follows. */
  deployments?: AppOptions["deployments"];
  /** The chain ids run as dev chains (plain http creator URLs are accepted on a dev classic chain). */
  devChainIds?: AppOptions["devChainIds"];
  /**
   * Whether the app's indexer runs on its own once the app listens. Off by
   * default: tests drive it (`services.indexer.indexers[i].syncOnce()`).
   */
  indexing?: boolean;
  /** Logs the indexer drops, as if it had missed them (the recovery tests' fault injection). */
  indexerSkipLog?: AppOptions["indexerSkipLog"];
  /** The classic reads' ETH/USD price source (default: the app's fixed dev rate). */
  ethUsdPrice?: AppOptions["ethUsdPrice"];
  /** The prediction feed's freshness bounds other than the documented ones. */
  predictFreshness?: AppOptions["predictFreshness"];
  /** How often the health report probes each chain's RPC once the app listens. */
  chainProbeIntervalMs?: number;
}

export async function setupApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await setupDatabase());
  const logs = createLogCapture();
  const config = loadConfig({
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    PORT: "0",
    ADMIN_PORT: "0",
    PUBLIC_URL: "https://api.mkt.test",
    // The test apps listen on a port picked at start, which names no origin: the
    // tests sign for the default listener's origins (`TEST_ORIGIN`).
    ALLOWED_ORIGINS: "http://localhost:8080,http://127.0.0.1:8080",
    ...options.env,
  });
  const logger = createLogger({ level: "trace", destination: logs.stream });
  const app = await createApp({
    config,
    db: database.db,
    logger,
    clock: options.clock,
    policies: options.policies,
    keyCache: options.keyCache,
    walletVerifier: options.walletVerifier,
    live: options.live,
    classicImageProxy: options.classicImageProxy,
    deployments: options.deployments,
    ...(options.devChainIds ? { devChainIds: options.devChainIds } : {}),
    indexing: options.indexing ?? false,
    ...(options.indexerSkipLog ? { indexerSkipLog: options.indexerSkipLog } : {}),
    ...(options.ethUsdPrice ? { ethUsdPrice: options.ethUsdPrice } : {}),
    ...(options.predictFreshness ? { predictFreshness: options.predictFreshness } : {}),
    ...(options.chainProbeIntervalMs !== undefined
      ? { chainProbeIntervalMs: options.chainProbeIntervalMs }
      : {}),
  });
  let keyCount = 0;
  const admin: TestApp["admin"] = (method, url, body) =>
    app.admin.inject({
      method,
      url,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      ...(body !== undefined ? { payload: body as object } : {}),
    });
  return {
    app,
    db: database.db,
    logs,
    admin,
    async createKey({ multiplier, ip } = {}) {
      keyCount += 1;
      const response = await app.server.inject({
        method: "POST",
        url: "/keys",
        remoteAddress: ip ?? `10.99.0.${keyCount % 250}`,
        payload: { description: `test key ${keyCount}`, email: "dev@example.com" },
      });
      if (response.statusCode !== 201)
        throw new Error(`key creation failed: ${response.statusCode} ${response.body}`);
      const created = response.json() as CreatedKey;
      if (multiplier !== undefined && multiplier !== 1) {
        const patched = await admin("PATCH", `/admin/keys/${created.id}`, { multiplier });
        if (patched.statusCode !== 200) throw new Error(`multiplier change failed: ${patched.statusCode}`);
        created.multiplier = multiplier;
      }
      return created;
    },
    async close() {
      await app.close();
      if (!options.database) await database.close();
    },
  };
}

/** Two replicas of the app on one database, as behind a load balancer. */
export async function setupReplicas(options: Omit<TestAppOptions, "database"> = {}) {
  const database = await setupDatabase();
  const a = await setupApp({ ...options, database });
  const b = await setupApp({ ...options, database });
  return {
    a,
    b,
    database,
    async close() {
      await a.close();
      await b.close();
      await database.close();
    },
  };
}
