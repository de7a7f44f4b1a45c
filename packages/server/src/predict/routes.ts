import {
  cache,
  declareRoutes,
  type RouteDefinition,
  type RouteSpec,
  type RouteTable,
} from "../http/route.ts";

const predict = { kind: "predict" } as const;

/** Moves with every commit of the prediction scope's indexer (app.ts announces it). */
export const PREDICT_INDEXER_SOURCE = "indexer:predict";

/**
 * The prediction feed (`/predict/v9`), every route and its rules. Every route
 * needs an API key and charges the feed's one per-IP budget.
 *
 * Revision sources of shared-cache routes: `predict-runtime` moves when the
 * runtime record changes; `indexer:predict` (PREDICT_INDEXER_SOURCE) with
 * every commit of the predict scope's indexer.
 */
export const PREDICT_ROUTES = {
  "GET /runtime": { access: predict, cache: cache.shared(60, ["predict-runtime"]) },
  "GET /health": { access: predict, cache: cache.noStore },
  // Markets and quotes (helper "markets"): state at the predict head's block, so a shared body
  // lives until the scope indexes another block; quotes are keyed by their query.
  "GET /markets": { access: predict, cache: cache.shared(2, [PREDICT_INDEXER_SOURCE]) },
  "GET /markets/:address": { access: predict, cache: cache.shared(2, [PREDICT_INDEXER_SOURCE]) },
  "GET /quote": { access: predict, cache: cache.shared(1, [PREDICT_INDEXER_SOURCE]) },
} satisfies RouteTable;

export function predictRoutes(specs: readonly RouteSpec[]): RouteDefinition[] {
  return declareRoutes("predict", PREDICT_ROUTES, specs);
}
