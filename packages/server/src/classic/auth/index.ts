export { createClassicBearerAuth } from "./bearer.ts";
export { classicAuthRoutes } from "./routes.ts";
export {
  type ClassicAccountContext,
  type ClassicAuthService,
  type ClassicSignInSender,
  createClassicAuthService,
} from "./service.ts";
