export type {
  LegacyMarkets,
  LegacyMarketsPage,
  LegacyMarketsPageRequest,
  LegacyTradesPage,
} from "./legacy.ts";
export { createLegacyMarkets, toLegacyMarket } from "./legacy.ts";
export { legacyRoutes } from "./legacy-routes.ts";
