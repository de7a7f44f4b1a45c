export { discoveryOf, discoveryRoutes, LIVE_STREAM_PATH } from "./discovery-routes.ts";
