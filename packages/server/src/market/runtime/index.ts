export { type ClaimsRequest, createRuntimeCatalog, type RuntimeCatalog } from "./catalog.ts";
export { runtimeCatalogRoutes } from "./catalog-routes.ts";
export { type CursorCodec, createCursorCodec } from "./cursors.ts";
