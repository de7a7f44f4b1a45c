export type {
  ClaimList,
  Head,
  MarketClaim,
  MarketDrop,
  MarketRuntime,
  MarketRuntimeCatalog,
  RateLimit,
  Release,
  ReleaseDraftInput,
  ReleaseList,
} from "@mkt/protocol";
export type { MarketSessionCredentials, MessageSigner, SignInOptions } from "./account.ts";
export type { MktClient, MktClientOptions } from "./client.ts";
export { createMktClient } from "./client.ts";
export { MktApiError } from "./errors.ts";
export type { RetryPolicy } from "./http.ts";
export type { ReleaseActionOptions, ReleaseSigner } from "./releases.ts";
export type { ClaimsOptions } from "./runtime.ts";
