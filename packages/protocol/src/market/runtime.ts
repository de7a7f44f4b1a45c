import { z } from "zod";
import { integerParam } from "../params/index.ts";
import { headSchema } from "./head.ts";
import { dropIdSchema, runtimeVersionSchema } from "./releases.ts";

const decimal = (description: string) =>
  z
    .string()
    .regex(/^(0|[1-9][0-9]{0,77})$/)
    .describe(description);
const address = (description: string) =>
  z
    .string()
    .regex(/^0x[0-9a-f]{40}$/)
    .describe(description);

export const marketRuntimeSchema = z
  .object({
    id: z
      .string()
      .describe("The runtime id clients put in `{version}` paths. Never infer the newest from a name."),
    version: decimal(
      "Onchain version number of the runtime (a uint256, as a decimal string); higher is newer. The registry only accepts increasing versions.",
    ),
    chainId: z.number().int(),
    contracts: z
      .record(z.string(), z.string())
      .describe(
        "Contract addresses of the runtime, lowercase, by name: `ClaimDrops` (its drops and claims) and `RuntimeRegistry` (where it was registered).",
      ),
    startBlock: z
      .number()
      .int()
      .describe(
        "The block of the runtime's `RuntimeRegistered` event: the indexer reads its ClaimDrops from that block's range on.",
      ),
    registeredAt: z.number().int().describe("Time of that block, in milliseconds since the Unix epoch."),
    registeredTransaction: z.string().describe("The registering transaction's hash."),
    scope: z.string().describe("The indexer scope whose `head` runtime-versioned reads report."),
    current: z.boolean().describe("True for the runtime of the highest version on its chain."),
  })
  .meta({ id: "MarketRuntime" });

/** `GET /market/runtime`: newest first. */
export const marketRuntimeListSchema = z
  .object({ runtimes: z.array(marketRuntimeSchema) })
  .meta({ id: "MarketRuntimeList" });

/**
 * One drop of a runtime's ClaimDrops contract. ClaimDrops drops have no
 * Merkle root (anyone may claim; the contract keeps no allowlist) and mint
 * no token ids: a claim adds `quantity` to the owner's balance of drop `id`.
 */
export const marketDropSchema = z
  .object({
    id: decimal("The drop id (a uint256 chosen by its creator, as a decimal string)."),
    contract: address("The runtime's ClaimDrops contract that holds the drop (the token contract)."),
    creator: address("The wallet that created the drop and receives its claims' payments."),
    price: decimal("Price of one unit in wei."),
    maxSupply: decimal("Units that can ever be claimed; `0` means unlimited."),
    claimed: decimal("Units claimed so far, at the catalog's `head`."),
    createdBlock: z.number().int().describe("Block of the drop's `DropCreated` event."),
    createdTransaction: z.string().describe("Hash of the transaction that created it."),
  })
  .meta({ id: "MarketDrop" });

export const DROP_PAGING = { defaultLimit: 100, maxLimit: 500, maxCursorLength: 500 } as const;
export const CLAIM_PAGING = { defaultLimit: 50, maxLimit: 100, maxCursorLength: 500 } as const;

const cursorSchema = (max: number) =>
  z
    .string()
    .min(1, "cursor must not be empty")
    .max(max, `cursor must be at most ${max} characters`)
    .optional();

const limitSchema = ({ defaultLimit, maxLimit }: { defaultLimit: number; maxLimit: number }) =>
  integerParam("limit", { min: 1, max: maxLimit, default: defaultLimit }).describe(
    `Items per page, 1 to ${maxLimit}; default ${defaultLimit}.`,
  );

export const runtimeParamsSchema = z.object({ version: runtimeVersionSchema });

/** `GET /market/runtime/{version}`: the drops are paged. */
export const runtimeCatalogQuerySchema = z.object({
  limit: limitSchema(DROP_PAGING),
  cursor: cursorSchema(DROP_PAGING.maxCursorLength).describe(
    "The catalog's `next` (opaque); omit for the first page of drops.",
  ),
});

/** `GET /market/runtime/{version}`: one runtime, its drops (oldest first, paged) and its scope's head. */
export const marketRuntimeCatalogSchema = z
  .object({
    runtime: marketRuntimeSchema,
    drops: z
      .array(marketDropSchema)
      .describe("Drops in creation order (block, then id), at most `limit`, after `cursor`."),
    next: z
      .string()
      .optional()
      .describe("Opaque cursor of the next page of drops; absent when no drop follows at `head`."),
    head: headSchema,
  })
  .meta({ id: "MarketRuntimeCatalog" });

/** `GET /market/runtime/{version}/claims` (docs/market.md, Indexed market: runtime catalog and claims). */
export const claimsQuerySchema = z.object({
  owner: z
    .string({ error: "owner is required (a 0x-prefixed 20-byte hex address)" })
    .regex(/^0x[0-9a-fA-F]{40}$/, "owner must match ^0x[0-9a-fA-F]{40}$")
    .transform((value) => value.toLowerCase())
    .describe("The wallet whose claims are listed (required; any case, compared lowercase)."),
  dropId: dropIdSchema
    .optional()
    .describe("Only claims of this drop (pattern `^[1-9][0-9]{0,77}$`); omit for every drop."),
  limit: limitSchema(CLAIM_PAGING),
  cursor: cursorSchema(CLAIM_PAGING.maxCursorLength).describe(
    "The `next` of the previous page, unchanged (opaque, at most 500 characters). It is valid only with the same runtime, `owner` and `dropId`: another filter, a forged or truncated cursor is 400.",
  ),
});

/** One claim: a `Claimed` event of the runtime's ClaimDrops contract. */
export const marketClaimSchema = z
  .object({
    dropId: decimal("The drop claimed."),
    contract: address("The runtime's ClaimDrops contract (the token contract of the drop)."),
    owner: address("The wallet that received the units."),
    quantity: decimal("Units claimed by this event."),
    paid: decimal("Wei paid (`price × quantity`; `0` for a free claim or an airdrop)."),
    totalClaimed: decimal("The drop's units claimed in total after this event."),
    transactionHash: z.string().describe("The claiming transaction."),
    blockNumber: z.number().int().describe("Its block."),
    logIndex: z.number().int().describe("Position of the `Claimed` log in its block."),
    blockTime: z.number().int().describe("The block's time, in milliseconds since the Unix epoch."),
  })
  .meta({ id: "MarketClaim" });

/** The claims list response: a page of claims and the `head` they were read at. */
export const claimListSchema = z
  .object({
    items: z
      .array(marketClaimSchema)
      .describe("Claims in chain order (block number, then log index), oldest first; at most `limit`."),
    next: z
      .string()
      .optional()
      .describe(
        "Opaque cursor of the next page for the same runtime, owner and drop filter. Absent when no claim followed this page at `head`; present whenever one did, even after a short page.",
      ),
    head: headSchema,
  })
  .meta({ id: "ClaimList" });

export type MarketRuntime = z.output<typeof marketRuntimeSchema>;
export type MarketRuntimeList = z.output<typeof marketRuntimeListSchema>;
export type MarketDrop = z.output<typeof marketDropSchema>;
export type MarketRuntimeCatalog = z.output<typeof marketRuntimeCatalogSchema>;
export type MarketClaim = z.output<typeof marketClaimSchema>;
export type ClaimList = z.output<typeof claimListSchema>;
/** The query of a claims read as a client sends it (`limit` is read from the query string's digits). */
export type ClaimsQuery = Omit<z.input<typeof claimsQuerySchema>, "limit"> & { limit?: number };
