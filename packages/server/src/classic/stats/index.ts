export { type ClassicStatsService, createClassicStatsService, priceUnavailable } from "./service.ts";
export { classicStatsRoutes } from "./stats-routes.ts";
