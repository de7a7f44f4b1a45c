import { type ChainDeployment, PREDICT_CHAIN_ID } from "@mkt/chain";
import {
  PREDICT_FRESHNESS_BOUNDS,
  type PredictRuntime,
  predictHealthSchema,
  predictRuntimeSchema,
} from "@mkt/protocol";
import { scopeIds } from "../chains/index.ts";
import type { Database } from "../db/index.ts";
import { UnavailableError } from "../errors.ts";
import { defineRoute, type RouteSpec } from "../http/route.ts";
import type { Clock } from "../quotas/limiter.ts";
import type { PredictFreshnessService } from "./freshness.ts";
import { FEED_GATE_RESPONSE, keyRefused } from "./responses.ts";
import type { PredictSettings } from "./settings.ts";

/** A successful database ping this recent answers `/health` again: a monitor polling hard costs one round trip a second. */
export const HEALTH_PING_REUSE_MS = 1_000;

/**
 * The database's liveness for `/health`: one ping at a time, shared by every
 * request that arrives meanwhile, and a success reused for
 * HEALTH_PING_REUSE_MS. A failure is never reused: the next request pings again.
 */
function sharedPing(db: Database, clock: Clock): () => Promise<void> {
  let answeredAt = Number.NEGATIVE_INFINITY;
  let pending: Promise<void> | undefined;
  return async () => {
    if (clock.now() - answeredAt < HEALTH_PING_REUSE_MS) return;
    pending ??= db
      .ping()
      .then(() => {
        answeredAt = clock.now();
      })
      .finally(() => {
        pending = undefined;
      });
    await pending;
  };
}

export function predictRuntimeRoutes({
  db,
  clock,
  deployment,
  settings,
  freshness,
}: {
  db: Database;
  clock: Clock;
  deployment: ChainDeployment | undefined;
  settings: PredictSettings;
  freshness: PredictFreshnessService;
}): RouteSpec[] {
  const ping = sharedPing(db, clock);
  const factory = deployment?.contracts["MarketFactory"];
  const fixed = {
    chainId: deployment?.chainId ?? PREDICT_CHAIN_ID,
    version: "v9",
    contracts: Object.fromEntries(
      Object.entries(deployment?.contracts ?? {}).map(([name, contract]) => [
        name,
        contract.address.toLowerCase(),
      ]),
    ),
    startBlock: factory?.startBlock ?? 0,
    scope: deployment && factory ? scopeIds.predict(deployment.chainId, factory.address) : "",
    finalityDepth: deployment?.finalityDepth ?? 0,
  };
  const bounds = `stale past ${PREDICT_FRESHNESS_BOUNDS.maxObservationAgeSeconds} s without observing the chain, a newest finalized block older than ${PREDICT_FRESHNESS_BOUNDS.maxBlockAgeSeconds} s, or more than ${PREDICT_FRESHNESS_BOUNDS.maxLagBlocks} blocks behind the chain beyond the finality depth`;
  return [
    defineRoute({
      method: "GET",
      path: "/runtime",
      operationId: "predictRuntime",
      summary: "The prediction feed's runtime record",
      description: `Read at startup: continue only when both \`enabled\` and \`publicEnabled\` are true. Both are operator switches and a change reaches every replica within a second; both are false when this deployment follows no prediction chain. Always answers (it is the one route the feed's gate never refuses), with the chain, the contracts, the finality depth (the projection holds only blocks at least that many blocks below the chain's newest) and the projection's freshness (${bounds}). Cached for at most 1 s (\`max-age=1\`) and dropped at once when a switch changes or the indexer commits.`,
      tags: ["Runtime"],
      responses: {
        200: { description: "The runtime record.", schema: predictRuntimeSchema },
        429: keyRefused,
      },
      handler: async (): Promise<PredictRuntime> => {
        const [flags, current] = await Promise.all([settings.flags(), freshness.current()]);
        return { ...flags, ...fixed, freshness: current };
      },
    }),
    defineRoute({
      method: "GET",
      path: "/health",
      operationId: "predictHealth",
      summary: "Health of the prediction feed",
      description: `For monitors. Like every route under /predict/v9 it needs the API-KEY header and counts against the key's budget, and like every read it passes the feed's gate: 200 with the projection's freshness while the feed serves this key; 503 (\`Cache-Control: no-store\`) when the feed is off, not public (for a key that is not first-party), stale (${bounds}) or its database does not answer (a successful answer of the database is reused for at most ${HEALTH_PING_REUSE_MS / 1000} s; a failed one never).`,
      tags: ["Runtime"],
      responses: {
        200: { description: "The feed serves.", schema: predictHealthSchema },
        429: keyRefused,
        503: FEED_GATE_RESPONSE,
      },
      handler: async () => {
        try {
          await ping();
        } catch (error) {
          throw new UnavailableError("the prediction feed's database does not answer", { cause: error });
        }
        return { status: "ok" as const, freshness: await freshness.current() };
      },
    }),
  ];
}
