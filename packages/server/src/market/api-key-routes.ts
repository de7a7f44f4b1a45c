import { apiKeyCheckQuerySchema, MARKET_BUCKETS } from "@mkt/protocol";
import { defineRoute } from "../http/route.ts";

/**
 * `GET /market/api-key`: reserves one request in the chosen bucket. The guard
 * has charged the bucket named by the query already, so the handler only
 * answers.
 */
export const apiKeyCheckRoute = defineRoute({
  method: "GET",
  path: "/api-key",
  operationId: "checkApiKey",
  summary: "Reserve one request in a budget",
  description:
    "Charges one request to the chosen per-minute budget of the key (read 100, write 25, stream 10, times the key's multiplier; per replica) and answers 204 with an empty body and the budget headers. It is not a free validity probe and not a wallet session.",
  tags: ["API keys"],
  request: { query: apiKeyCheckQuerySchema },
  responses: {
    204: { description: "One request was reserved; the RateLimit headers describe the bucket." },
    400: { description: `bucket missing or not one of ${MARKET_BUCKETS.join(", ")}.` },
    401: { description: "API key missing, malformed or invalid." },
    429: {
      description:
        "The bucket is exhausted, this client has used up its failed key attempts, or the replica is at capacity.",
    },
    503: { description: "The key lookup is unavailable; the service fails closed." },
  },
  handler: (_request, reply) => reply.code(204).send(),
});
