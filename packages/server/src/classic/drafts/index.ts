export { createDeploymentReader, type DeploymentReader, type GameDeployment } from "./deployments.ts";
export { classicDraftRoutes } from "./draft-routes.ts";
export { type ClassicDraftService, type CreatorActor, createClassicDraftService } from "./service.ts";
