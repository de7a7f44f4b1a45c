export type { ClassicError, MarketError, PredictError, PredictRateLimited } from "./errors/index.ts";
export {
  classicErrorSchema,
  marketErrorSchema,
  PREDICT_RATE_LIMIT_CODE,
  predictErrorSchema,
  predictRateLimitSchema,
} from "./errors/index.ts";
export type { AdminKey, AdminKeyPatch, CreatedKey, CreateKeyRequest } from "./keys/index.ts";
export {
  API_KEY_PREFIX,
  adminKeyListSchema,
  adminKeyPatchSchema,
  adminKeySchema,
  apiKeyPattern,
  createdKeySchema,
  createKeyRequestSchema,
} from "./keys/index.ts";
export type { MarketBucket } from "./market/index.ts";
export { apiKeyCheckQuerySchema, MARKET_API_VERSION, marketBucketSchema } from "./market/index.ts";
export { PREDICT_API_VERSION } from "./predict/index.ts";
