export { createClassicBearerAuth, signedInAccount } from "./bearer.ts";
export { controlsWallet } from "./ownership.ts";
export { classicAuthRoutes } from "./routes.ts";
export {
  type ClassicAccountContext,
  type ClassicAuthService,
  type ClassicSignInSender,
  createClassicAuthService,
} from "./service.ts";
