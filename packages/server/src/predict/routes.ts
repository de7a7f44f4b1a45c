import {
  cache,
  declareRoutes,
  type RouteDefinition,
  type RouteSpec,
  type RouteTable,
} from "../http/route.ts";

const predict = { kind: "predict" } as const;

/**
 * The prediction feed (`/predict/v9`), every route and its rules. Every route
 * needs an API key and charges the feed's one per-IP budget.
 *
 * Revision sources of shared-cache routes: `predict-runtime` moves when the
 * runtime record changes.
 */
export const PREDICT_ROUTES = {
  "GET /runtime": { access: predict, cache: cache.shared(60, ["predict-runtime"]) },
  "GET /health": { access: predict, cache: cache.noStore },
  // Stream, portfolio, points (issue 15, helper "stream"): the stream is long-lived, outside the
  // in-flight cap, on the market live streams' budget and caps; owner reads are per address.
  "GET /stream": { access: { kind: "predict", class: "stream" }, cache: cache.noStore, stream: true },
  "GET /portfolio/:address": { access: predict, cache: cache.noStore },
  "GET /points/:address": { access: predict, cache: cache.noStore },
  "GET /points": { access: predict, cache: cache.noStore },
} satisfies RouteTable;

export function predictRoutes(specs: readonly RouteSpec[]): RouteDefinition[] {
  return declareRoutes("predict", PREDICT_ROUTES, specs);
}
