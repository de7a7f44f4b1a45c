import { type Discovery, discoverySchema, MARKET_API_VERSION, type MarketRuntime } from "@mkt/protocol";
import type { Config } from "../../config/index.ts";
import { defineRoute, type RouteSpec } from "../../http/route.ts";
import { appProxySurface, classicSurface, marketSurface, predictSurface } from "../../http/surfaces.ts";
import type { Budget, QuotaPolicies } from "../../quotas/policies.ts";

/**
 * The path of the live-updates stream (docs/live-updates.md). Discovery names it;
 * the stream route itself is defined by the live-updates area.
 */
export const LIVE_STREAM_PATH = "/market/live";

const budget = ({ limit, windowMs }: Budget) => ({ limit, windowSeconds: windowMs / 1000 });

/** The discovery document, from the configuration, the quota policies and the runtime listing. */
export function discoveryOf({
  config,
  policies,
  runtimes,
}: {
  config: Pick<Config, "publicUrl" | "publicReads">;
  policies: QuotaPolicies;
  runtimes: readonly MarketRuntime[];
}): Discovery {
  const base = config.publicUrl;
  const surfaces = [marketSurface(), classicSurface(), predictSurface(base), appProxySurface()].map(
    (surface) => {
      // The first-party proxy's routes are published in the market document, under its mount point.
      const documentedIn = surface.name === "app" ? "market" : surface.name;
      return {
        name: surface.name as Discovery["surfaces"][number]["name"],
        title: surface.title,
        baseUrl: `${base}${surface.prefix}`,
        docsUrl: `${base}/docs/${documentedIn}`,
        openapiUrl: `${base}/openapi/${documentedIn}.json`,
      };
    },
  );
  const buckets = (set: QuotaPolicies["market"]) => ({
    read: budget(set.read),
    write: budget(set.write),
    stream: budget(set.stream),
  });
  return discoverySchema.parse({
    apiVersion: MARKET_API_VERSION,
    publicReads: config.publicReads,
    keyCreateUrl: `${base}/keys`,
    runtimes,
    surfaces,
    budgets: { key: buckets(policies.market), proxyAnonymous: buckets(policies.proxyAnonymous) },
    stream: { path: LIVE_STREAM_PATH, url: `${base}${LIVE_STREAM_PATH}`, bucket: "stream" },
  });
}

/** `GET /market/discovery`: what a client reads first. */
export function discoveryRoutes({
  runtimes,
  ...deps
}: Omit<Parameters<typeof discoveryOf>[0], "runtimes"> & {
  /** The runtime catalog (`GET /market/runtime`'s listing). */
  runtimes: { list(): Promise<MarketRuntime[]> };
}): RouteSpec[] {
  return [
    defineRoute({
      method: "GET",
      path: "/discovery",
      operationId: "getDiscovery",
      summary: "What a client reads first",
      description: `One answer with what a client needs before any other call: the market's runtimes (as \`GET /market/runtime\` lists them: take \`{version}\` from here, never from a name), every API this server mounts with its reference and OpenAPI document, the market's budgets (per key and for the website proxy without a session), the path of the live-updates stream, and the \`PUBLIC_READS\` mode (\`open\`: the public reads need no key). Times are seconds; the budgets are per replica, sliding windows.

Served from the shared read cache, invalidated with the runtime listing. Also served by the first-party proxy. A public read: with PUBLIC_READS=open it needs no API key (then budgeted per client IP at the read rate); with PUBLIC_READS=key (the default) it needs \`API-KEY\`.`,
      tags: ["Discovery"],
      responses: {
        200: { description: "The discovery document.", schema: discoverySchema },
        401: {
          description: "API key missing, malformed or invalid (PUBLIC_READS=key, or when a key is sent).",
        },
        429: { description: "Read budget exhausted; honour Retry-After." },
      },
      handler: async () => discoveryOf({ ...deps, runtimes: await runtimes.list() }),
    }),
  ];
}
