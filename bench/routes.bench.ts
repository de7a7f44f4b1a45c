import { cpus, loadavg } from "node:os";
import { BENCH_CLAIMS_OWNER } from "./claims-seed.ts";
import { BENCH_CLASSIC_DROP } from "./classic-seed.ts";
import {
  armFloorServer,
  formatRow,
  type LoadOptions,
  type LoadResult,
  LoadTally,
  load,
  median,
  recordAnswer,
  startApiServer,
  startBareServer,
} from "./harness.ts";
import { BENCH_PREDICT_MARKET } from "./predict-seed.ts";
import { seedReleases } from "./seed-releases.ts";

/** Each hot read against bare node:http answering the same bytes (requests/s, median of the rounds). */
const TARGET_RATIO = 0.65;
/** Each hot read against the framework's floor in the same process: what mkt's pipeline keeps of it. */
const FLOOR_TARGET_RATIO = 0.9;
/** The same load shape for both servers: these connections, one request in flight on each. */
const CONNECTIONS = 64;
const PIPELINING = 1;
/** Each round's load of each server is cut into slices this long, the two servers taking turns. */
const SLICE_SECONDS = 1;
/** The client address a load balancer in front of the server would report (TEST-NET-3). */
const FORWARDED_FOR = "203.0.113.7";

interface RouteTarget {
  id: string;
  path: string;
  /** What the server holds before its answer is recorded, for the name. */
  note?: string;
  /** Puts that data in through the API, before the answer is recorded. */
  seed?: (server: { baseUrl: string; apiKey: string }) => Promise<void>;
  /** More environment of the API server process. */
  env?: Record<string, string>;
  /**
   * A key-checked hot read: held to TARGET_RATIO of bare node:http and to
   * FLOOR_TARGET_RATIO of the framework's floor (floor-server.ts: an empty
   * Fastify route answering the same bytes inside the API server's process),
   * which is measured beside it. Other routes are measured and reported
   * without a verdict.
   */
  hot?: boolean;
}

/** The routes measured, each with a key whose multiplier is raised so every request succeeds. */
const ROUTES: RouteTarget[] = [
  { id: "api-key", path: "/market/api-key?bucket=read", hot: true },
  { id: "runtime", path: "/market/runtime", hot: true },
  // The first page (50 summaries, `more: true`) of 100 announced releases.
  {
    id: "releases",
    path: "/market/releases",
    note: "100 releases seeded",
    seed: (server) => seedReleases(server, 100),
    hot: true,
  },
  // A full page (100) of one owner's claims among 20,000 others', seeded (claims-seed.ts). Reported only.
  {
    id: "claims",
    path: `/market/runtime/r1/claims?owner=${BENCH_CLAIMS_OWNER}&limit=100`,
    env: { BENCH_SEED_CLAIMS: "1" },
  },
  // The first page (20 games) of 200 seeded games (classic-seed.ts).
  { id: "classic-games", path: "/classic/games?limit=20", env: { BENCH_SEED_CLASSIC: "1" }, hot: true },
  // A page (50 packs) of one game's 20,000 packs, newest change first, token ids above 2^64.
  {
    id: "classic-range",
    path: `/classic/range?contractAddress=${BENCH_CLASSIC_DROP}`,
    env: { BENCH_SEED_CLASSIC: "1" },
    hot: true,
  },
  // The first page (20 markets) of 200 seeded prediction markets (predict-seed.ts).
  { id: "predict-markets", path: "/predict/v9/markets", env: { BENCH_SEED_PREDICT: "1" }, hot: true },
  // A buy quote of 1 WETH on an open seeded market. Reported only.
  {
    id: "predict-quote",
    path: `/predict/v9/quote?market=${BENCH_PREDICT_MARKET}&side=yes&amount=1000000000000000000`,
    env: { BENCH_SEED_PREDICT: "1" },
  },
];

/**
 * Each route without a proxy in front, and as production runs it behind one
 * load balancer: TRUST_PROXY=1, every request carrying X-Forwarded-For.
 */
const PROXY_SETUPS = [
  { id: "", label: "TRUST_PROXY unset", trustProxy: undefined, headers: {} },
  {
    id: ":trust-proxy",
    label: "TRUST_PROXY=1, X-Forwarded-For",
    trustProxy: "1",
    headers: { "x-forwarded-for": FORWARDED_FOR },
  },
] as const;

export interface RouteCase {
  /** The suite id `npm run bench -- <filter>` matches. */
  id: string;
  name: string;
  path: string;
  trustProxy: string | undefined;
  /** Headers every request carries besides the API key, to both servers. */
  headers: Record<string, string>;
  seed: RouteTarget["seed"];
  /** More environment of the API server process. */
  env: Record<string, string>;
  /** Held to the targets, with the framework's floor measured beside it. */
  hot: boolean;
}

export const routeCases: RouteCase[] = ROUTES.flatMap((route) =>
  PROXY_SETUPS.map((setup) => ({
    id: `route:${route.id}${setup.id}`,
    name: `GET ${route.path} (${route.note ? `${route.note}, ` : ""}${setup.label}) vs bare node:http answering the same bytes`,
    path: route.path,
    trustProxy: setup.trustProxy,
    headers: setup.headers,
    seed: route.seed,
    env: route.env ?? {},
    hot: route.hot === true,
  })),
);

type Side = "bare" | "api" | "floor";

/**
 * Both servers, freshly started: the API server first, seeded through its
 * API when the route needs data, whose answer to one request is recorded,
 * then a bare server that replays that answer.
 */
async function startServers(routeCase: RouteCase) {
  const server = await startApiServer({
    logLevel: "info",
    trustProxy: routeCase.trustProxy,
    env: { ...routeCase.env, ...(routeCase.hot ? { BENCH_FLOOR: "1" } : {}) },
  });
  let bare: Awaited<ReturnType<typeof startBareServer>>;
  let answerBytes = 0;
  const headers = { ...routeCase.headers, "api-key": server.apiKey };
  try {
    await routeCase.seed?.(server);
    const answer = await recordAnswer(`${server.baseUrl}${routeCase.path}`, headers);
    if (answer.status >= 300) throw new Error(`${routeCase.path} answered ${answer.status}: ${answer.body}`);
    bare = await startBareServer(answer, headers);
    answerBytes = answer.body.length;
    if (routeCase.hot) {
      if (!server.floorUrl) throw new Error("the API server started no floor server");
      await armFloorServer(server.floorUrl, answer, headers);
    }
  } catch (error) {
    await server.stop();
    throw error;
  }
  const shape = { connections: CONNECTIONS, pipelining: PIPELINING, headers };
  const targets: Partial<Record<Side, Omit<LoadOptions, "durationSeconds">>> = {
    bare: { ...shape, url: `${bare.url}${routeCase.path}`, pid: bare.pid },
    api: { ...shape, url: `${server.baseUrl}${routeCase.path}`, pid: server.pid },
    ...(server.floorUrl
      ? { floor: { ...shape, url: `${server.floorUrl}${routeCase.path}`, pid: server.pid } }
      : {}),
  };
  const sides = Object.keys(targets) as Side[];
  const measure = async (side: Side, seconds: number, into?: LoadTally) => {
    const result = await load({ ...targets[side]!, durationSeconds: seconds }, into);
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${side} answered errors: ${JSON.stringify(result)}`);
    return result;
  };
  return { measure, sides, answerBytes, stop: () => Promise.all([server.stop(), bare.stop()]) };
}

/**
 * One route of the API server against a bare node:http server answering
 * the same bytes (the status, headers and body the API server answered, as
 * recorded from it), each server in its own process and the load generator
 * (autocannon) in this one, measured in the same run.
 *
 * Each of the `rounds` rounds starts both servers afresh, warms both up, then
 * loads each for `durationSeconds` in slices of SLICE_SECONDS, the two
 * taking turns (bare-ours, ours-bare, ...): on a shared machine whose speed
 * drifts from one second to the next (a bare server alone measures anywhere
 * from 30 to 43 µs of CPU per request here), a drift weighs on both alike.
 * The figure is the median of the per-round requests/s ratios: a round
 * disturbed by another process on a shared machine, or a server process
 * whose JIT happened to settle badly, moves it little. The CPU time each
 * server process spent per answered request is read from /proc, from outside
 * the servers. Targets of a hot read: median ratio of requests/s at least
 * TARGET_RATIO against the bare server and FLOOR_TARGET_RATIO against the
 * framework's floor, measured in the same rounds.
 */
export async function benchRoute(
  routeCase: RouteCase,
  {
    durationSeconds,
    rounds,
    warmupSeconds,
  }: {
    durationSeconds: number;
    rounds: number;
    /** Seconds each server is loaded before anything counts (0: no warm-up). */
    warmupSeconds: number;
  },
) {
  const results: {
    bare: LoadResult;
    api: LoadResult;
    floor: LoadResult | undefined;
    ratio: number;
    p99Ratio: number;
  }[] = [];
  const loads: number[] = [];
  let answerBytes = 0;
  for (let round = 0; round < rounds; round++) {
    loads.push(loadavg()[0]!);
    const servers = await startServers(routeCase);
    answerBytes = servers.answerBytes;
    try {
      // Warm every server up (JIT, key cache, connection handling) before anything counts.
      if (warmupSeconds > 0) for (const side of servers.sides) await servers.measure(side, warmupSeconds);
      const tallies = new Map(servers.sides.map((side) => [side, new LoadTally()]));
      const slices = Math.max(1, Math.round(durationSeconds / SLICE_SECONDS));
      for (let slice = 0; slice < slices; slice++) {
        // Taking turns, each slice starting one server further along.
        const first = (round + slice) % servers.sides.length;
        const order = [...servers.sides.slice(first), ...servers.sides.slice(0, first)];
        for (const side of order) await servers.measure(side, SLICE_SECONDS, tallies.get(side));
      }
      const bare = tallies.get("bare")!.result();
      const api = tallies.get("api")!.result();
      results.push({
        bare,
        api,
        floor: tallies.get("floor")?.result(),
        ratio: api.requestsPerSecond / bare.requestsPerSecond,
        p99Ratio: api.p99Ms / Math.max(bare.p99Ms, 0.01),
      });
    } finally {
      await servers.stop();
    }
  }

  const ratio = median(results.map((r) => r.ratio));
  const cpu = (side: Side) => {
    const values = results.map((r) => r[side]?.cpuMicrosPerRequest);
    return values.every((v) => v !== undefined) ? median(values as number[]) : undefined;
  };
  const bareCpu = cpu("bare");
  const apiCpu = cpu("api");
  const floorCpu = routeCase.hot ? cpu("floor") : undefined;
  const floor = floorFigures(results);
  const bareMet = ratio >= TARGET_RATIO;
  const floorMet = floor !== undefined && floor.share >= FLOOR_TARGET_RATIO;
  const met = !routeCase.hot || (bareMet && floorMet);
  const verdict = routeCase.hot
    ? `(target >= ${TARGET_RATIO}) ${bareMet ? "MET" : "NOT MET"}`
    : "(no target: reported only)";
  const floorVerdict = floor
    ? `api / floor ${floor.share.toFixed(3)} (target >= ${FLOOR_TARGET_RATIO}) ${floorMet ? "MET" : "NOT MET"}`
    : "";
  const route = `GET ${routeCase.path}`;
  return {
    name: routeCase.name,
    lines: [
      `${rounds} rounds, each on freshly started servers: ${warmupSeconds} s warm-up each, then ${durationSeconds} s each in ${SLICE_SECONDS} s slices, taking turns; ${CONNECTIONS} connections, pipelining ${PIPELINING}`,
      `answer body: ${answerBytes} bytes`,
      `1-minute load average before each round: ${loads.map((value) => value.toFixed(2)).join(", ")} (${cpus().length} cores)`,
      ...results.flatMap((r, index) => [
        `round ${index + 1}`,
        `  ${formatRow("bare node:http (baseline)", r.bare)}`,
        `  ${formatRow(route, r.api)}`,
        ...(r.floor ? [`  ${formatRow("empty Fastify route (floor)", r.floor)}`] : []),
        `  ratio (requests/s) ${r.ratio.toFixed(3)}${
          r.floor ? `   api / floor ${(r.api.requestsPerSecond / r.floor.requestsPerSecond).toFixed(3)}` : ""
        }   p99 ratio (api / baseline) ${r.p99Ratio.toFixed(2)}`,
      ]),
      `per-round ratios: ${results.map((r) => r.ratio.toFixed(3)).join(", ")}`,
      `median p99: baseline ${median(results.map((r) => r.bare.p99Ms)).toFixed(2)} ms, api ${median(
        results.map((r) => r.api.p99Ms),
      ).toFixed(2)} ms (median p99 ratio ${median(results.map((r) => r.p99Ratio)).toFixed(2)})`,
      bareCpu !== undefined && apiCpu !== undefined
        ? `median CPU per request: baseline ${bareCpu.toFixed(1)} µs, api ${apiCpu.toFixed(1)} µs (baseline / api ${(bareCpu / apiCpu).toFixed(3)})${
            floorCpu !== undefined
              ? `, floor ${floorCpu.toFixed(1)} µs (floor / api ${(floorCpu / apiCpu).toFixed(3)})`
              : ""
          }`
        : "CPU per request: not available (no /proc)",
      ...(floor
        ? [
            `floor: an empty Fastify route answering the same bytes in the API server's process (floor-server.ts)`,
            `  per-round api / floor: ${floor.perRound.map((value) => value.toFixed(3)).join(", ")}`,
            `  median ratio floor / baseline (requests/s): ${floor.floorRatio.toFixed(3)}   (reported only)`,
            `  median ratio api / floor (requests/s): ${floor.share.toFixed(3)}   (target >= ${FLOOR_TARGET_RATIO}) ${floorMet ? "MET" : "NOT MET"}`,
          ]
        : []),
      `median ratio (requests/s): ${ratio.toFixed(3)}   ${verdict}`,
    ],
    summary: `median ratio ${ratio.toFixed(3)} ${verdict}${floorVerdict ? `; ${floorVerdict}` : ""}`,
    met,
  };
}

/**
 * The framework's floor beside the targets: how near the baseline an empty
 * Fastify route gets inside the API server's process, and how much of that
 * the route keeps through mkt's pipeline (per round and the median).
 */
function floorFigures(results: { bare: LoadResult; api: LoadResult; floor: LoadResult | undefined }[]) {
  const measured = results.filter((r) => r.floor !== undefined);
  if (measured.length === 0) return undefined;
  const perRound = measured.map((r) => r.api.requestsPerSecond / r.floor!.requestsPerSecond);
  return {
    perRound,
    floorRatio: median(measured.map((r) => r.floor!.requestsPerSecond / r.bare.requestsPerSecond)),
    share: median(perRound),
  };
}
