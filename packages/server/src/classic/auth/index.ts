export { controlsWallet } from "./ownership.ts";
export { classicAuthRoutes } from "./routes.ts";
export {
  type ClassicAuthService,
  type ClassicSignInSender,
  createClassicAuthService,
} from "./service.ts";
