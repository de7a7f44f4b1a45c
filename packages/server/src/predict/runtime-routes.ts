import type { ChainDeployment } from "@mkt/chain";
import { healthSchema, predictRuntimeSchema } from "@mkt/protocol";
import { scopeIds } from "../chains/index.ts";
import type { Database } from "../db/index.ts";
import { UnavailableError } from "../errors.ts";
import { defineRoute, type RouteSpec } from "../http/route.ts";

export function predictRuntimeRoutes({
  db,
  deployment,
}: {
  db: Database;
  deployment: ChainDeployment | undefined;
}): RouteSpec[] {
  const factory = deployment?.contracts["MarketFactory"];
  const runtime = predictRuntimeSchema.parse({
    enabled: deployment !== undefined,
    publicEnabled: deployment !== undefined,
    chainId: deployment?.chainId ?? 4663,
    version: "v9",
    contracts: Object.fromEntries(
      Object.entries(deployment?.contracts ?? {}).map(([name, contract]) => [
        name,
        contract.address.toLowerCase(),
      ]),
    ),
    startBlock: factory?.startBlock ?? 0,
    scope: deployment && factory ? scopeIds.predict(deployment.chainId, factory.address) : "",
  });
  return [
    defineRoute({
      method: "GET",
      path: "/runtime",
      operationId: "predictRuntime",
      summary: "The prediction feed's runtime record",
      description:
        "Read at startup: continue only when both `enabled` and `publicEnabled` are true. Both are false when this deployment follows no prediction chain.",
      tags: ["Runtime"],
      responses: {
        200: { description: "The runtime record.", schema: predictRuntimeSchema },
        429: { description: "API key missing or invalid, or quota exhausted (one identical response)." },
      },
      handler: () => runtime,
    }),
    defineRoute({
      method: "GET",
      path: "/health",
      operationId: "predictHealth",
      summary: "Health of the prediction feed",
      description:
        "Like every route under /predict/v9 it needs the API-KEY header and counts against the key's budget. 200 while the feed's database answers; 503 (not cacheable) otherwise.",
      tags: ["Runtime"],
      responses: {
        200: { description: "The feed can serve.", schema: healthSchema },
        429: { description: "API key missing or invalid, or quota exhausted (one identical response)." },
        503: { description: "The database does not answer." },
      },
      handler: async (_request, reply) => {
        try {
          await db.ping();
        } catch (error) {
          throw new UnavailableError("the prediction feed's database does not answer", { cause: error });
        }
        return { status: "ok" };
      },
    }),
  ];
}
