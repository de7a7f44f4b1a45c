export { createDeploymentReader, type DeploymentReader, type GameDeployment } from "./deployments.ts";
export { classicDraftRoutes } from "./draft-routes.ts";
export type { CreatorActor } from "./draft-rows.ts";
export { type ClassicDraftService, createClassicDraftService } from "./service.ts";
