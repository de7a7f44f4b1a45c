export { creatorRoutes } from "./creator-routes.ts";
export { type CreatorService, createCreatorService } from "./service.ts";
