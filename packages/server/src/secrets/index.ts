export { createServerSecrets, hmac, type ServerSecrets } from "./server-secrets.ts";
