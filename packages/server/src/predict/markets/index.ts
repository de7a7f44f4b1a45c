export type { MarketsPageRequest, PredictMarkets, PredictMarketsDeps, QuoteRequest } from "./markets.ts";
export { createPredictMarkets } from "./markets.ts";
export { predictMarketsRoutes } from "./markets-routes.ts";
