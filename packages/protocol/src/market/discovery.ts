import { z } from "zod";
import { marketRuntimeSchema } from "./runtime.ts";

const budget = z.object({
  limit: z.number().int().describe("Requests admitted per window."),
  windowSeconds: z.number().int().describe("The sliding window, in seconds."),
});

const buckets = z.object({ read: budget, write: budget, stream: budget });

/** `GET /market/discovery`: what a client reads first. */
export const discoverySchema = z
  .object({
    apiVersion: z.string().describe("`info.version` of the market OpenAPI document."),
    publicReads: z
      .enum(["key", "open"])
      .describe(
        "`key`: every route needs `API-KEY`; `open`: the public reads (the routes marked so in the documents) need none and are budgeted per client IP.",
      ),
    keyCreateUrl: z.string().describe("Where API keys are created (`POST`)."),
    runtimes: z
      .array(marketRuntimeSchema)
      .describe("The runtimes of the market, newest first, exactly as `GET /market/runtime` lists them."),
    surfaces: z
      .array(
        z.object({
          name: z.enum(["market", "classic", "predict", "app"]),
          title: z.string(),
          baseUrl: z.string().describe("Absolute URL of the mount point."),
          docsUrl: z
            .string()
            .nullable()
            .describe(
              "The human-readable reference (the website proxy's: the market's, which lists its routes).",
            ),
          openapiUrl: z
            .string()
            .nullable()
            .describe(
              "The OpenAPI 3.1 document (the website proxy's: the market's, whose `/app/api` paths are the proxy's routes).",
            ),
        }),
      )
      .describe("Every API this server mounts."),
    budgets: z
      .object({
        key: buckets.describe("Per API key per replica, each multiplied by the key's `multiplier`."),
        proxyAnonymous: buckets.describe(
          "The first-party website proxy `/app/api` without a session, per client (an IPv4 address or an IPv6 /64).",
        ),
      })
      .describe("The market's per-minute budgets; every route charges one bucket (`RateLimit-*` headers)."),
    stream: z
      .object({
        path: z.string().describe("Path of the live-updates stream below the server's base URL."),
        url: z.string().describe("Absolute URL of the stream."),
        bucket: z.literal("stream").describe("Opening a stream charges this bucket."),
      })
      .describe("Live updates (server-sent events)."),
  })
  .meta({
    id: "Discovery",
    examples: [
      {
        apiVersion: "2026-09-10",
        publicReads: "key",
        keyCreateUrl: "http://127.0.0.1:8080/keys",
        runtimes: [
          {
            id: "r2",
            version: "2",
            chainId: 8453,
            contracts: {
              ClaimDrops: "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512",
              RuntimeRegistry: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
            },
            startBlock: 5,
            registeredAt: 1789999000000,
            registeredTransaction: "0x8a0b3f4cd2a1e1b7c9f0e3d5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4c5d6e7f",
            scope: "8453:runtime:r2",
            current: true,
          },
        ],
        surfaces: [
          {
            name: "market",
            title: "mkt Market API",
            baseUrl: "http://127.0.0.1:8080/market",
            docsUrl: "http://127.0.0.1:8080/docs/market",
            openapiUrl: "http://127.0.0.1:8080/openapi/market.json",
          },
        ],
        budgets: {
          key: {
            read: { limit: 100, windowSeconds: 60 },
            write: { limit: 25, windowSeconds: 60 },
            stream: { limit: 10, windowSeconds: 60 },
          },
          proxyAnonymous: {
            read: { limit: 30, windowSeconds: 60 },
            write: { limit: 10, windowSeconds: 60 },
            stream: { limit: 5, windowSeconds: 60 },
          },
        },
        stream: { path: "/market/live", url: "http://127.0.0.1:8080/market/live", bucket: "stream" },
      },
    ],
  });

export type Discovery = z.output<typeof discoverySchema>;
