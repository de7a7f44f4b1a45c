// The scale benchmark (`npm run bench -- scale`): each surface's read routes over its production
// volumes times SCALE, on PostgreSQL.
//
// Method, per surface (`scale:market`, `scale:classic`, `scale:predict`):
// - DATABASE_URL must name a PostgreSQL server (else the suite is skipped, saying why); its settings
//   are the server's own (fsync on, stock settings: nothing here changes them).
// - Each scale gets a database `mkt_scale_<surface>_<scale>` (`mkt_scale_market_1`,
//   `mkt_scale_market_0_01`) in that server, KEPT after the run and reused while its fingerprint
//   matches: a hash of the migrations, the surface module's and its volume loader's sources, and the
//   scale, stored in `bench_scale_fingerprint` in that database. BENCH_SCALE_RELOAD=1 reloads.
//   Loading: create the database, migrate, `surface.load`, `VACUUM ANALYZE` (statistics and the
//   visibility map a freshly loaded table lacks until autovacuum passes), `surface.checkSample`
//   (a failing check fails the suite), then the fingerprint. The load time is printed.
// - The run measures at SCALE and at the reference scale 0.01 (once when SCALE is 0.01), for the
//   target "p99 at SCALE at most twice its p99 at 0.01".
// - The API server runs in its own process (bench/api-server.ts, `BENCH_SCALE_SURFACE=<id>`) over
//   that database, serving the surface's `deployment` without indexing, with a key whose multiplier
//   lets every request through.
// - Per route (first page, deep page): autocannon at 32 connections, a warm-up of 1 s (none in a smoke run),
//   then BENCH_SECONDS (default 5; 2 when SCALE is 0.01, the CI-sized smoke run): p50, p99,
//   requests/s. Every measured answer must be 200 (any other status or a socket error fails the line
//   and the suite). Then the SQL of one request of that route, captured by serving it in this process
//   (an in-process app on the same database, `server.inject`, recording every statement and its
//   values the pg driver sends during that request), replayed per "request" by a pg.Pool of 32 at 32
//   concurrent for the same duration: requests/s. The request captured is the second one (the first
//   fills the key and session caches and the read cache): when it ran no SQL, the route is served
//   from a cache; the line says so and has no ratio target, and its direct-SQL rate is that of the
//   first request's SQL (what a miss costs: after every change of the cached data's source).
// - One line per route: route, page, volume, p50, p99, req/s, direct-SQL req/s, ratio, p99 at 0.01,
//   and the targets it misses. Targets at SCALE=1: p99 <= 50 ms; p99 <= 2 x its p99 at 0.01; API
//   requests/s >= 0.5 x direct-SQL requests/s.
//
// A surface is a module `bench/scale/<id>.ts` exporting a `ScaleSurface` (surface.ts), listed in
// `bench/scale/surfaces.ts`. Its volume loader lives in `packages/server/src/_test/volume/<id>.ts`
// (tests under packages/ cannot import bench/), imported by the surface module and by that
// surface's plan test (`EXPLAIN` of its hot queries over ~200k rows).
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { type CapturedStatement, captureStatements } from "../../packages/server/src/_test/volume/capture.ts";
import { createApp } from "../../packages/server/src/app.ts";
import { loadConfig } from "../../packages/server/src/config/index.ts";
import { migrate, openDatabase, readMigrations } from "../../packages/server/src/db/index.ts";
import { createLogger } from "../../packages/server/src/logging/index.ts";
import { type LoadResult, load, startApiServer } from "../harness.ts";
import type { ScaleLoadContext, ScaleRoute, ScaleRoutesContext, ScaleSurface } from "./surface.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const CONNECTIONS = 32;
export const REFERENCE_SCALE = 0.01;
/** Targets at SCALE=1. */
const TARGET_P99_MS = 50;
const TARGET_P99_GROWTH = 2;
const TARGET_SQL_SHARE = 0.5;
/**
 * The first-party origins the API server (and the capture app) allow to sign in: the documented
 * defaults, which a listener on a picked port would not otherwise name. Sessions sign in from these.
 */
export const SCALE_ALLOWED_ORIGINS = "http://localhost:8080,http://127.0.0.1:8080";
/** The operator token of the in-process capture app (it never listens). */
const CAPTURE_ADMIN_TOKEN = "bench-scale-capture-token-0000000";

export interface ScaleSuiteResult {
  name: string;
  lines: string[];
  summary?: string;
  met: boolean;
  /** Why the suite measured nothing. */
  skipped?: string;
}

/** SCALE from the environment: a positive number, default 1. */
export function scaleFromEnv(env: Record<string, string | undefined> = process.env): number {
  const raw = env["SCALE"] ?? "1";
  const scale = Number(raw);
  if (!Number.isFinite(scale) || scale <= 0) throw new Error(`SCALE must be a positive number, got ${raw}`);
  return scale;
}

/** The kept database of a surface at a scale: `mkt_scale_market_1`, `mkt_scale_market_0_01`. */
export function scaleDatabaseName(surface: ScaleSurface["id"], scale: number): string {
  return `mkt_scale_${surface}_${String(scale).replace(/[^0-9]/g, "_")}`;
}

/** What a loaded database was loaded from: migrations, the surface's sources, the scale. */
export function scaleFingerprint(surface: ScaleSurface["id"], scale: number): string {
  const hash = createHash("sha256");
  for (const migration of readMigrations()) hash.update(JSON.stringify(migration));
  for (const source of [`bench/scale/${surface}.ts`, `packages/server/src/_test/volume/${surface}.ts`]) {
    const path = join(root, source);
    hash.update(source).update(existsSync(path) ? readFileSync(path) : "(absent)");
  }
  hash.update(`scale=${scale}`);
  return hash.digest("hex");
}

const urlOf = (serverUrl: string, database: string) => {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
};

const count = (scale: number) => (base: number) => Math.max(1, Math.round(base * scale));
const log = (line: string) => process.stderr.write(`[scale] ${line}\n`);

/**
 * The loaded database of `surface` at `scale`: reused when its fingerprint
 * matches (and BENCH_SCALE_RELOAD is not 1), else dropped, created, migrated,
 * loaded, analysed and checked.
 */
export async function prepareScaleDatabase(
  serverUrl: string,
  surface: ScaleSurface,
  scale: number,
): Promise<{ url: string; loaded: "reused" | { seconds: number } }> {
  const name = scaleDatabaseName(surface.id, scale);
  const url = urlOf(serverUrl, name);
  const fingerprint = scaleFingerprint(surface.id, scale);
  const admin = new pg.Client({ connectionString: urlOf(serverUrl, "postgres") });
  await admin.connect();
  try {
    const exists = (await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount === 1;
    if (
      exists &&
      process.env["BENCH_SCALE_RELOAD"] !== "1" &&
      (await storedFingerprint(url)) === fingerprint
    ) {
      return { url, loaded: "reused" };
    }
    // The database is this benchmark's own (its name says so): drop it with its sessions.
    if (exists) await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const started = performance.now();
  const db = await openDatabase({ kind: "postgres", url, poolSize: 4 });
  try {
    await migrate(db);
    const ctx: ScaleLoadContext = { db, url, scale, count: count(scale), log };
    log(`${surface.id} at ${scale}: loading into ${name}`);
    await surface.load(ctx);
    log(`${surface.id} at ${scale}: VACUUM ANALYZE`);
    await db.withConnection((connection) => connection.exec("VACUUM ANALYZE"));
    log(`${surface.id} at ${scale}: checking a sample`);
    await surface.checkSample(ctx);
    const seconds = (performance.now() - started) / 1000;
    await db.withConnection(async (connection) => {
      await connection.exec(
        "CREATE TABLE IF NOT EXISTS bench_scale_fingerprint (fingerprint text NOT NULL, load_seconds double precision NOT NULL, loaded_at timestamptz NOT NULL DEFAULT now())",
      );
      await connection.query("DELETE FROM bench_scale_fingerprint", []);
      await connection.query(
        "INSERT INTO bench_scale_fingerprint (fingerprint, load_seconds) VALUES ($1, $2)",
        [fingerprint, seconds],
      );
    });
    return { url, loaded: { seconds } };
  } finally {
    await db.close();
  }
}

async function storedFingerprint(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ fingerprint: string }>(
      "SELECT fingerprint FROM bench_scale_fingerprint LIMIT 1",
    );
    return rows[0]?.fingerprint;
  } catch {
    // No fingerprint table: a load that never finished.
    return undefined;
  } finally {
    await client.end();
  }
}

/**
 * Runs `statements` as one "request" after another on `connections`
 * concurrent workers sharing a pg.Pool of that size, for `seconds`:
 * requests/s of the SQL alone, without the API in front.
 */
export async function replayStatements(
  url: string,
  statements: readonly CapturedStatement[],
  { connections, seconds }: { connections: number; seconds: number },
): Promise<number> {
  const pool = new pg.Pool({ connectionString: url, max: connections });
  try {
    const oneRequest = async () => {
      const client = await pool.connect();
      try {
        for (const statement of statements) await client.query(statement.text, statement.values);
      } finally {
        client.release();
      }
    };
    // Open every connection before the clock starts, as autocannon's connections are.
    await Promise.all(Array.from({ length: connections }, oneRequest));
    let done = 0;
    const started = performance.now();
    const until = started + seconds * 1000;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < until) {
          await oneRequest();
          done += 1;
        }
      }),
    );
    return done / ((performance.now() - started) / 1000);
  } finally {
    await pool.end();
  }
}

/** An in-process app over the loaded database, to capture the SQL one request runs. */
async function startCaptureApp(url: string, surface: ScaleSurface) {
  const config = loadConfig({
    DATABASE_URL: url,
    PORT: "0",
    ADMIN_PORT: "0",
    ADMIN_TOKEN: CAPTURE_ADMIN_TOKEN,
    LOG_LEVEL: "warn",
    MKT_MAX_IN_FLIGHT: "100000",
    ALLOWED_ORIGINS: SCALE_ALLOWED_ORIGINS,
  });
  const db = await openDatabase({ kind: "postgres", url });
  const app = await createApp({
    config,
    db,
    logger: createLogger({ level: "warn" }),
    deployments: [surface.deployment],
    indexing: false,
  });
  const stopServing = surface.serve?.(db);
  return {
    async request(path: string, headers: Record<string, string>) {
      const response = await app.server.inject({ method: "GET", url: path, headers });
      return { status: response.statusCode, body: response.body };
    },
    async close() {
      stopServing?.();
      await app.close();
      await db.close();
    },
  };
}

interface RouteFigures {
  route: ScaleRoute;
  api: LoadResult;
  /** Direct-SQL requests/s; undefined in a reference pass. */
  sqlPerSecond?: number;
  /** How the SQL replayed was obtained. */
  sqlNote?: string;
  /** The answer came from a cache: no ratio target. */
  cached?: boolean;
  statements?: number;
}

/** Every route of `surface` over the database at `url`; direct SQL too unless `apiOnly`. */
async function measureScale(
  surface: ScaleSurface,
  url: string,
  scale: number,
  { seconds, warmupSeconds, apiOnly }: { seconds: number; warmupSeconds: number; apiOnly: boolean },
): Promise<RouteFigures[]> {
  const server = await startApiServer({
    logLevel: "warn",
    databaseUrl: url,
    env: { BENCH_SCALE_SURFACE: surface.id, ALLOWED_ORIGINS: SCALE_ALLOWED_ORIGINS },
  });
  const capture = apiOnly ? undefined : await startCaptureApp(url, surface);
  try {
    const withKey = (headers: Record<string, string> = {}) =>
      Object.keys(headers).some((name) => name.toLowerCase() === "api-key")
        ? headers
        : { ...headers, "api-key": server.apiKey };
    const db = await openDatabase({ kind: "postgres", url, poolSize: 2 });
    let routes: ScaleRoute[];
    try {
      const ctx: ScaleRoutesContext = {
        db,
        url,
        scale,
        count: count(scale),
        log,
        fetch: (path, init = {}) =>
          fetch(`${server.baseUrl}${path}`, {
            method: init.method ?? "GET",
            headers: withKey(init.headers),
            ...(init.body !== undefined ? { body: init.body } : {}),
          }),
      };
      routes = await surface.routes(ctx);
    } finally {
      await db.close();
    }
    const figures: RouteFigures[] = [];
    for (const route of routes) {
      const headers = withKey(route.headers);
      const target = {
        url: `${server.baseUrl}${route.path}`,
        headers,
        connections: CONNECTIONS,
        pipelining: 1,
      };
      const checked = async (result: LoadResult, what: string) => {
        if (result.non2xx > 0 || result.errors > 0) {
          // One more request, to show what the failing answers said.
          const sample = await fetch(target.url, { headers }).then(
            async (response) => `${response.status} ${(await response.text()).slice(0, 500)}`,
            (error: unknown) => String(error),
          );
          throw new Error(
            `${route.route} (${route.page} page, ${route.path}) ${what}: ${result.non2xx} answers were not 2xx, ${result.errors} errors or timeouts, of ${result.requests}; one more request answered ${sample}`,
          );
        }
        return result;
      };
      if (warmupSeconds > 0)
        await checked(await load({ ...target, durationSeconds: warmupSeconds }), "during the warm-up");
      const api = await checked(
        await load({ ...target, durationSeconds: seconds, pid: server.pid }),
        "under load",
      );
      if (!capture) {
        figures.push({ route, api });
        continue;
      }
      // The first request fills the key, session and read caches; the second is what a request costs.
      const first = await captureStatements(() => capture.request(route.path, headers));
      const second = await captureStatements(() => capture.request(route.path, headers));
      for (const { result } of [first, second]) {
        if (result.status !== 200)
          throw new Error(
            `${route.route} (${route.path}) answered ${result.status} in process: ${result.body}`,
          );
      }
      if (second.statements.length === 0) {
        // Served from a cache: no ratio target; the direct-SQL rate shown is a miss's (the first request's SQL).
        figures.push({
          route,
          api,
          cached: true,
          statements: first.statements.length,
          ...(first.statements.length > 0
            ? {
                sqlPerSecond: await replayStatements(url, first.statements, {
                  connections: CONNECTIONS,
                  seconds,
                }),
              }
            : {}),
          sqlNote: "served from a cache, no SQL per request; sql/s is a miss's",
        });
        continue;
      }
      const sqlPerSecond = await replayStatements(url, second.statements, {
        connections: CONNECTIONS,
        seconds,
      });
      figures.push({ route, api, sqlPerSecond, statements: second.statements.length });
    }
    return figures;
  } finally {
    await capture?.close();
    await server.stop();
  }
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const key = (route: ScaleRoute) => `${route.route} ${route.page}`;

/**
 * The scale suite of one surface: load (or reuse) its databases at SCALE
 * and at 0.01, measure every route, one line each, and the verdict.
 */
export async function benchScale(
  surface: ScaleSurface,
  options: { scale: number; seconds?: number | undefined; warmupSeconds: number },
): Promise<ScaleSuiteResult> {
  const { scale, warmupSeconds } = options;
  const name = `scale:${surface.id} at SCALE=${scale}: p50/p99 at ${CONNECTIONS} connections and the same SQL run directly`;
  const serverUrl = process.env["DATABASE_URL"];
  if (!serverUrl || !/^postgres(ql)?:\/\//.test(serverUrl))
    return {
      name,
      lines: ["skipped: DATABASE_URL must name a PostgreSQL server (postgres://…)"],
      summary: "skipped (no PostgreSQL DATABASE_URL)",
      met: true,
      skipped: "DATABASE_URL must name a PostgreSQL server",
    };
  const seconds = options.seconds ?? (scale === REFERENCE_SCALE ? 2 : 5);
  const lines: string[] = [];
  const loads: string[] = [];
  const loadAverage = () => loads.push(loadavg()[0]!.toFixed(2));

  const reference = new Map<string, RouteFigures>();
  if (scale !== REFERENCE_SCALE) {
    const prepared = await prepareScaleDatabase(serverUrl, surface, REFERENCE_SCALE);
    lines.push(loadLine(REFERENCE_SCALE, prepared));
    loadAverage();
    for (const figures of await measureScale(surface, prepared.url, REFERENCE_SCALE, {
      seconds,
      warmupSeconds,
      apiOnly: true,
    }))
      reference.set(key(figures.route), figures);
  }
  const prepared = await prepareScaleDatabase(serverUrl, surface, scale);
  lines.push(loadLine(scale, prepared));
  loadAverage();
  const measured = await measureScale(surface, prepared.url, scale, {
    seconds,
    warmupSeconds,
    apiOnly: false,
  });
  loadAverage();
  if (scale === REFERENCE_SCALE) for (const figures of measured) reference.set(key(figures.route), figures);

  lines.push(
    `${CONNECTIONS} connections, ${warmupSeconds} s warm-up, ${seconds} s measured per route; direct SQL: the statements of one request, ${CONNECTIONS} concurrent on a pg.Pool of ${CONNECTIONS}`,
    `1-minute load average: ${loads.join(", ")} (${cpus().length} cores); targets at SCALE=1: p99 <= ${TARGET_P99_MS} ms, p99 <= ${TARGET_P99_GROWTH} x p99 at ${REFERENCE_SCALE}, req/s >= ${TARGET_SQL_SHARE} x direct SQL`,
    `${"route".padEnd(44)} ${"page".padEnd(5)} ${"volume".padEnd(26)} ${"p50".padStart(9)} ${"p99".padStart(9)} ${"req/s".padStart(7)} ${"sql/s".padStart(7)} ${"ratio".padStart(6)} ${"p99@0.01".padStart(9)}  misses`,
  );
  let missed = 0;
  let worstP99 = 0;
  for (const figures of measured) {
    const ref = reference.get(key(figures.route));
    const misses: string[] = [];
    if (figures.api.p99Ms > TARGET_P99_MS) misses.push(`p99>${TARGET_P99_MS}ms`);
    if (
      ref &&
      scale !== REFERENCE_SCALE &&
      figures.api.p99Ms > TARGET_P99_GROWTH * Math.max(ref.api.p99Ms, 1)
    )
      misses.push(`p99>${TARGET_P99_GROWTH}x@${REFERENCE_SCALE}`);
    const ratio =
      figures.sqlPerSecond !== undefined ? figures.api.requestsPerSecond / figures.sqlPerSecond : undefined;
    if (ratio !== undefined && !figures.cached && ratio < TARGET_SQL_SHARE)
      misses.push(`ratio<${TARGET_SQL_SHARE}`);
    // The targets are set at SCALE=1; smaller runs report misses without failing.
    if (misses.length > 0 && scale >= 1) missed += 1;
    worstP99 = Math.max(worstP99, figures.api.p99Ms);
    lines.push(
      `${figures.route.route.padEnd(44)} ${figures.route.page.padEnd(5)} ${figures.route.volume.padEnd(26)} ${ms(
        figures.api.p50Ms,
      ).padStart(9)} ${ms(figures.api.p99Ms).padStart(9)} ${figures.api.requestsPerSecond
        .toFixed(0)
        .padStart(7)} ${(figures.sqlPerSecond?.toFixed(0) ?? "n/a").padStart(7)} ${(
        ratio?.toFixed(2) ?? "n/a"
      ).padStart(
        6,
      )} ${(ref ? ms(ref.api.p99Ms) : "n/a").padStart(9)}  ${misses.length > 0 ? misses.join(", ") : "-"}${
        figures.sqlNote ? `  (${figures.sqlNote})` : ""
      }`,
      `    ${figures.route.path}  [${figures.statements ?? 0} statements]`,
    );
  }
  const met = missed === 0;
  return {
    name,
    lines,
    summary: `${measured.length} routes, worst p99 ${ms(worstP99)}, ${
      scale >= 1
        ? met
          ? "targets MET"
          : `${missed} routes miss a target: NOT MET`
        : "targets apply at SCALE=1 (reported only)"
    }`,
    met,
  };
}

function loadLine(scale: number, prepared: { url: string; loaded: "reused" | { seconds: number } }) {
  const database = new URL(prepared.url).pathname.slice(1);
  return prepared.loaded === "reused"
    ? `SCALE=${scale}: ${database} reused (fingerprint matches; BENCH_SCALE_RELOAD=1 reloads)`
    : `SCALE=${scale}: ${database} loaded in ${prepared.loaded.seconds.toFixed(1)} s (migrate, load, VACUUM ANALYZE, sample check)`;
}

/** The scale suites of the registered surfaces, for bench/run.ts. */
export function scaleSuites(surfaces: readonly ScaleSurface[]) {
  return surfaces.map((surface) => ({
    id: `scale:${surface.id}`,
    run: (sizes: { scale: { scale: number; seconds: number | undefined; warmupSeconds: number } }) =>
      benchScale(surface, sizes.scale),
  }));
}
