export { type ClassicDropStats, createClassicDropStats } from "./drop-stats.ts";
export { classicDropStatsRoutes } from "./live-routes.ts";
export { type ClassicStatsService, createClassicStatsService, priceUnavailable } from "./service.ts";
export { classicStatsRoutes } from "./stats-routes.ts";
