export { streamRoutes } from "./stream-routes.ts";
