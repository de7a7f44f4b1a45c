/**
 * The prediction feed's public surface: markets and quotes, the stream,
 * portfolios and points, market media and the feed's runtime.
 */

export { PREDICT_API_VERSION } from "./api.ts";
export type {
  PredictLeaderboard,
  PredictLegacyMarket,
  PredictLegacyTrade,
  PredictPoints,
  PredictPortfolio,
  PredictPortfolioQuery,
  PredictPosition,
  PredictStreamEvent,
  PredictStreamEventData,
  PredictStreamEventName,
} from "./feed.ts";
export {
  PREDICT_LEADERBOARD_LIMIT,
  PREDICT_POINTS_UNIT,
  PREDICT_PORTFOLIO_LIMIT,
  PREDICT_STREAM,
  parsePredictStreamEvent,
  predictAddressParamsSchema,
  predictHeadEventSchema,
  predictLeaderboardQuerySchema,
  predictLeaderboardSchema,
  predictLegacyMarketParamsSchema,
  predictLegacyMarketSchema,
  predictLegacyMarketsQuerySchema,
  predictLegacyMarketsSchema,
  predictLegacyTradeSchema,
  predictLegacyTradesSchema,
  predictMarketEventSchema,
  predictPointsOf,
  predictPointsSchema,
  predictPortfolioQuerySchema,
  predictPortfolioSchema,
  predictPositionSchema,
  predictResolutionEventSchema,
  predictResyncSchema,
  predictStreamEventSchema,
  predictStreamEventSchemas,
  predictTradeEventSchema,
} from "./feed.ts";
export type {
  PredictBlock,
  PredictMarket,
  PredictMarketResponse,
  PredictMarketState,
  PredictMarketsPage,
  PredictMarketsQuery,
  PredictQuote,
  PredictQuoteQuery,
  PredictSide,
} from "./markets.ts";
export {
  PREDICT_MARKET_STATES,
  PREDICT_MARKETS_LIMIT,
  PREDICT_SIDES,
  predictBlockSchema,
  predictMarketParamsSchema,
  predictMarketResponseSchema,
  predictMarketSchema,
  predictMarketsPageSchema,
  predictMarketsQuerySchema,
  predictQuoteQuerySchema,
  predictQuoteSchema,
} from "./markets.ts";
export type {
  AdminPredictMarketMedia,
  PredictMarketMedia,
  PredictMarketMediaImage,
} from "./media.ts";
export {
  adminPredictMarketMediaSchema,
  PREDICT_ART_SIZE,
  PREDICT_MEDIA_URL_MAX,
  predictMarketMediaImageSchema,
  predictMarketMediaSchema,
} from "./media.ts";
export type {
  AdminPredictRuntimePatch,
  PredictFreshness,
  PredictHealth,
  PredictRuntime,
  PredictStaleReason,
} from "./runtime.ts";
export {
  adminPredictRuntimePatchSchema,
  PREDICT_FRESHNESS_BOUNDS,
  PREDICT_STALE_REASONS,
  predictFreshnessSchema,
  predictHealthSchema,
  predictRuntimeSchema,
} from "./runtime.ts";
