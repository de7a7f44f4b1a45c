export { type ClassicAccountStatsService, createClassicAccountStats } from "./account-stats.ts";
export { classicReportsAdminRoutes } from "./admin.ts";
export { type ClassicReactionsService, createClassicReactions } from "./reactions.ts";
export { type ClassicRecoveryService, createClassicRecovery } from "./recovery.ts";
export { classicRecoveryRoutes } from "./recovery-routes.ts";
export { type ClassicRefreshesService, createClassicRefreshes } from "./refreshes.ts";
export { type ClassicReportsService, createClassicReports } from "./reports.ts";
export { classicSocialRoutes } from "./social-routes.ts";
