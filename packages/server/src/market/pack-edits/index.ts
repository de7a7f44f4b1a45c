export { packEditRoutes } from "./pack-edit-routes.ts";
export { createPackEditService, type PackEditService, type PackEditServiceDeps } from "./service.ts";
