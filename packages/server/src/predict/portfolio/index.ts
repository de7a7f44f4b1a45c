export { inFinalizedSnapshot, readFinalizedBlock } from "../finalized.ts";
export type { PortfolioService, PredictFeedScope } from "./portfolio.ts";
export { createPortfolioService } from "./portfolio.ts";
export { portfolioRoutes } from "./portfolio-routes.ts";
