import { z } from "zod";

/** Unix milliseconds, or null when it never happened. */
const at = (description: string) =>
  z.number().int().nullable().describe(`${description} Unix milliseconds; null: never.`);

/** One chain's JSON-RPC as this replica's own probe sees it. */
export const adminChainHealthSchema = z.object({
  chainId: z.number().int(),
  up: z
    .boolean()
    .nullable()
    .describe(
      "Whether this replica's last call to the chain's RPC (`eth_blockNumber`) answered; null before the first probe ended.",
    ),
  head: z
    .number()
    .int()
    .nullable()
    .describe("The chain's newest block at the last successful probe; null before one."),
  lastSuccessAt: at("The last successful probe."),
  lastErrorAt: at("The last failed probe."),
  lastError: z
    .string()
    .nullable()
    .describe(
      "What kind of failure the last failed probe was (`timeout`, `connection refused`, `http 502`, `rpc error -32005`, `invalid answer`, ...): a class, never the URL or the provider's text.",
    ),
});

/** One indexer scope against the chain head this replica observes. */
export const adminScopeHealthSchema = z.object({
  scope: z.string(),
  chainId: z.number().int(),
  indexedBlock: z.number().int().describe("The last block indexed (`nextBlock - 1` of its head)."),
  chainHead: z
    .number()
    .int()
    .nullable()
    .describe(
      "The newer of the chain head from this replica's probe and the one the scope's indexer last recorded; null when neither is known.",
    ),
  lagBlocks: z
    .number()
    .int()
    .nullable()
    .describe(
      "`chainHead - indexedBlock`, 0 at least; a scope that reads only final blocks never drops below its finality depth.",
    ),
  observedAt: at("When the indexer (whichever replica writes the scope) last recorded the chain head."),
  observedAgeMs: z
    .number()
    .int()
    .nullable()
    .describe(
      "Milliseconds since `observedAt`: stays under a few seconds while the scope's writer reaches its chain.",
    ),
  failure: z.string().describe("The indexer's last failure on this scope, or empty."),
});

/** The ETH/USD price source of the classic priced reads on this replica. */
export const adminPriceHealthSchema = z.object({
  source: z
    .enum(["fixed", "http", "none"])
    .describe(
      "`fixed` (ETH_USD_PRICE, or the dev chain's default), `http` (ETH_USD_PRICE_URL) or `none`: priced classic routes answer 503 PRICE_UNAVAILABLE.",
    ),
  available: z.boolean().describe("Whether a usable price is known now."),
  usdPerEth: z.string().nullable(),
  obtainedAt: at("When the price in use was obtained."),
});

/** `GET /admin/health` on the operator listener: this replica's view of its dependencies beyond the database. */
export const adminHealthSchema = z
  .object({
    status: z
      .enum(["ok", "degraded"])
      .describe(
        "`degraded` when a chain's RPC is down, a scope's indexer records a failure, or no ETH/USD price is available.",
      ),
    checkedAt: z.number().int(),
    chains: z.array(adminChainHealthSchema),
    scopes: z.array(adminScopeHealthSchema),
    price: adminPriceHealthSchema,
    readiness: z.object({
      requireChain: z
        .boolean()
        .describe("READYZ_REQUIRE_CHAIN: `/readyz` answers 503 while a chain's RPC is down."),
      ready: z
        .boolean()
        .describe("What `/readyz` would say of the chains now (true when it does not look at them)."),
    }),
  })
  .meta({ id: "AdminHealth" });

export type AdminHealth = z.infer<typeof adminHealthSchema>;
export type AdminChainHealth = z.infer<typeof adminChainHealthSchema>;
export type AdminScopeHealth = z.infer<typeof adminScopeHealthSchema>;
export type AdminPriceHealth = z.infer<typeof adminPriceHealthSchema>;
