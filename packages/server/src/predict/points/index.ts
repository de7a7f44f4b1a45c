export type { PointsService } from "./points.ts";
export { createPointsService, pointsOf } from "./points.ts";
export { pointsRoutes } from "./points-routes.ts";
