export { artworkRoutes } from "./artwork-routes.ts";
export { releaseRoutes } from "./release-routes.ts";
export {
  createReleaseService,
  RELEASES_SOURCE,
  type ReleaseOutcome,
  type ReleaseService,
  type ReleaseServiceDeps,
} from "./service.ts";
export { PUBLIC_STATUSES, visibleTo } from "./visibility.ts";
