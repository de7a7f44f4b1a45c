export type { MktClient, MktClientOptions, RateLimit } from "./client.ts";
export { createMktClient } from "./client.ts";
export { MktApiError } from "./errors.ts";
export type { RetryPolicy } from "./http.ts";
