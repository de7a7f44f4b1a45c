import {
  cache,
  declareRoutes,
  type RouteDefinition,
  type RouteSpec,
  type RouteTable,
} from "../http/route.ts";
import { PREDICT_INDEXER_SOURCE } from "./freshness.ts";
import { PREDICT_MEDIA_SOURCE } from "./media/media.ts";
import { PREDICT_RUNTIME_SOURCE } from "./settings.ts";

const predict = { kind: "predict" } as const;

/** Reads of the finalized projection: shared, moved by every commit of the feed's indexer scope. */
const feedState = cache.shared(5, [PREDICT_INDEXER_SOURCE]);

/**
 * The prediction feed (`/predict/v9`), every route and its rules. Every route
 * needs an API key and charges the feed's one per-IP budget. Every route but
 * `/runtime` declares `gate: "feed"`: the feed's switches, the key's
 * first-party flag and the projection's freshness (predict/gate.ts), checked
 * after the key and before the read cache; its refusals are 503 `no-store`.
 *
 * Revision sources of shared-cache routes: `predict-runtime`
 * (PREDICT_RUNTIME_SOURCE) moves when the operator changes a switch;
 * `indexer:predict` (PREDICT_INDEXER_SOURCE) on every commit of the feed's
 * indexer scope.
 */
export const PREDICT_ROUTES = {
  // Never gated: clients read it to learn whether to go on. Its freshness moves with the clock: 1 s at most.
  "GET /runtime": {
    access: predict,
    cache: cache.shared(1, [PREDICT_RUNTIME_SOURCE, PREDICT_INDEXER_SOURCE]),
  },
  "GET /health": { access: predict, cache: cache.noStore, gate: "feed" },
  // Stream, portfolio, points: the stream is long-lived, outside the
  // in-flight cap, on the market live streams' budget and caps; owner reads are per address.
  "GET /stream": {
    access: { kind: "predict", class: "stream" },
    cache: cache.noStore,
    stream: true,
    gate: "feed",
  },
  "GET /portfolio/:address": { access: predict, cache: feedState, gate: "feed" },
  "GET /points/:address": { access: predict, cache: feedState, gate: "feed" },
  "GET /points": { access: predict, cache: feedState, gate: "feed" },
  // Markets and quotes: state at the predict head's block, so a shared body lives until the
  // scope indexes another block; quotes are keyed by their query.
  "GET /markets": { access: predict, cache: cache.shared(2, [PREDICT_INDEXER_SOURCE]), gate: "feed" },
  "GET /markets/:address": {
    access: predict,
    cache: cache.shared(2, [PREDICT_INDEXER_SOURCE]),
    gate: "feed",
  },
  "GET /quote": { access: predict, cache: cache.shared(1, [PREDICT_INDEXER_SOURCE]), gate: "feed" },
  // Market media (predict/media): the generated art and the operator's image, moved by the
  // projection (a market appears) and by the operator (`predict-media`, PREDICT_MEDIA_SOURCE).
  "GET /markets/:address/media": {
    access: predict,
    cache: cache.shared(5, [PREDICT_INDEXER_SOURCE, PREDICT_MEDIA_SOURCE]),
    gate: "feed",
  },
  // Legacy (earlier generation, first-party history and migration; deprecated in OpenAPI): same
  // finalized projection as /markets, so the same cache rule.
  "GET /legacy/markets": { access: predict, cache: cache.shared(2, [PREDICT_INDEXER_SOURCE]), gate: "feed" },
  "GET /legacy/markets/:id": {
    access: predict,
    cache: cache.shared(2, [PREDICT_INDEXER_SOURCE]),
    gate: "feed",
  },
  "GET /legacy/markets/:id/trades": {
    access: predict,
    cache: cache.shared(2, [PREDICT_INDEXER_SOURCE]),
    gate: "feed",
  },
} satisfies RouteTable;

/** The one route the feed's gate never refuses. */
const UNGATED = new Set(["GET /runtime"]);

export function predictRoutes(specs: readonly RouteSpec[]): RouteDefinition[] {
  const routes = declareRoutes("predict", PREDICT_ROUTES, specs);
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    if (!UNGATED.has(key) && route.gate !== "feed")
      throw new Error(`predict: route ${key} must declare gate: "feed" (only /runtime is never gated)`);
  }
  return routes;
}
