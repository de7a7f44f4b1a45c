import type { ChainDeployment } from "@mkt/chain";
import { type MarketRuntimeList, marketRuntimeListSchema } from "@mkt/protocol";
import { chainRoles, scopeIds } from "../chains/index.ts";
import { defineRoute } from "../http/route.ts";

/** The runtimes of the current generation, newest first, from the deployment the indexer follows. */
export function marketRuntimeList(deployments: ChainDeployment[]): MarketRuntimeList {
  const market = chainRoles(deployments).market;
  const runtimes = (market ? [market.deployment] : [])
    .flatMap((deployment) => {
      const newest = Math.max(...deployment.runtimes.map((runtime) => runtime.version));
      return deployment.runtimes.map((runtime) => ({
        id: runtime.id,
        version: runtime.version,
        chainId: deployment.chainId,
        contracts: Object.fromEntries(
          Object.entries(runtime.contracts).map(([name, address]) => [name, address.toLowerCase()]),
        ),
        startBlock: runtime.startBlock,
        scope: scopeIds.runtime(deployment.chainId, runtime.id),
        current: runtime.version === newest,
      }));
    })
    .sort((a, b) => b.version - a.version);
  return marketRuntimeListSchema.parse({ runtimes });
}

/** `GET /market/runtime`: the runtimes of the current generation, from the deployment the indexer follows. */
export function marketRuntimeRoute(deployments: ChainDeployment[]) {
  const body = marketRuntimeList(deployments);
  return defineRoute({
    method: "GET",
    path: "/runtime",
    operationId: "listRuntimes",
    summary: "List the runtimes of the current marketplace",
    description:
      "Runtime discovery: clients take `{version}` for runtime-versioned reads from here, never from a name. Newest first. A public read: it needs no key when PUBLIC_READS=open.",
    tags: ["Discovery"],
    responses: {
      200: { description: "The runtimes.", schema: marketRuntimeListSchema },
      401: { description: "API key missing, malformed or invalid (PUBLIC_READS=key)." },
      429: { description: "Read budget exhausted." },
    },
    handler: () => body,
  });
}
