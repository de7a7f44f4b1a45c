import { PREDICT_FRESHNESS_BOUNDS, predictErrorSchema, predictRateLimitSchema } from "@mkt/protocol";

/** The one 429 of every route of the feed: missing key, invalid key and spent budget alike. */
export const keyRefused = {
  description:
    'API key missing or invalid, or the per-IP budget (100 requests per minute per client IP) spent: one identical answer `{error: "API_KEY_REQUIRED_OR_RATE_LIMITED", docs}`.',
  schema: predictRateLimitSchema,
} as const;

/** The 503 every gated route documents (predict/gate.ts). */
export const FEED_GATE_RESPONSE = {
  description: `The feed does not serve this request; \`Cache-Control: no-store\`, \`Retry-After\`; the body is \`{error, message}\` with \`error\`: \`FEED_DISABLED\` (the operator turned the feed off; \`Retry-After: 60\`), \`FEED_NOT_PUBLIC\` (the feed is open to first-party keys only; \`Retry-After: 60\`) or \`PROJECTION_STALE\` (past a freshness bound: the indexer has not observed the chain for ${PREDICT_FRESHNESS_BOUNDS.maxObservationAgeSeconds} s, the newest finalized block is more than ${PREDICT_FRESHNESS_BOUNDS.maxBlockAgeSeconds} s old, or the projection is more than ${PREDICT_FRESHNESS_BOUNDS.maxLagBlocks} blocks behind the chain beyond the finality depth; \`Retry-After: 5\`; while the chain's RPC is down the indexer stops observing it, so this is what an RPC outage of more than ${PREDICT_FRESHNESS_BOUNDS.maxObservationAgeSeconds} s looks like, and the feed serves again once the indexer sees the chain), or \`SERVICE_UNAVAILABLE\` (the database is unavailable; \`Retry-After: 1\`). Nothing is rebuilt from the chain. Keep the last good snapshot, mark it stale and retry with backoff.`,
  schema: predictErrorSchema,
} as const;

/** The 503 of every route that reads the finalized projection: the gate's, or no finalized block yet. */
export const projectionUnavailable = {
  description: `${FEED_GATE_RESPONSE.description} Also \`{error: "UNAVAILABLE"}\` while the projection holds no finalized block yet (a new deployment, or just after a rewind).`,
  schema: predictErrorSchema,
} as const;
