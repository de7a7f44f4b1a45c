import { z } from "zod";

/**
 * The claims `head` object (market-api.md section 2): the state of one
 * indexer scope's projection, sent beside reads built from it so a client can
 * tell how fresh they are. Block numbers and times are integers; absent
 * values are 0 or "" (never null).
 */
export const headSchema = z
  .object({
    scope: z
      .string()
      .describe(
        "The indexer scope: chain, contract set and runtime (`8453:registry:<registry>` for every runtime a RuntimeRegistry registered, `8453:classic:<factory>`, `4663:predict:<factory>`).",
      ),
    nextBlock: z
      .number()
      .int()
      .describe("The next block the indexer will read; every block below it is indexed."),
    blockHash: z
      .string()
      .describe("Hash of the last indexed block (`nextBlock - 1`); empty before the first block."),
    revision: z
      .number()
      .int()
      .describe("Raised by every change of the projection (a range written, a reorg undone, a reset)."),
    updatedAt: z.number().int().describe("When the head last changed, in milliseconds since the Unix epoch."),
    failure: z.string().describe("Why indexing currently fails (an RPC error, say); empty while it works."),
    observedHead: z
      .number()
      .int()
      .describe("The chain's latest block as the RPC reported it when the indexer last looked; 0 before."),
    observedAt: z
      .number()
      .int()
      .describe("When `observedHead` was read, in milliseconds since the Unix epoch; 0 before."),
    webhookAudit: z
      .record(z.string(), z.unknown())
      .describe(
        "Audit of provider webhook deliveries into this scope. Always `{}` for now: no provider webhooks exist (this server indexes by polling the RPC).",
      ),
  })
  .meta({ id: "Head" });

export type Head = z.infer<typeof headSchema>;

/** One indexer scope as the operator listener lists it (`GET /admin/indexer`): its head and its progress. */
export const adminScopeHeadSchema = headSchema
  .extend({
    chainId: z.number().int(),
    lag: z
      .number()
      .int()
      .describe("Blocks between `observedHead` and the last block indexed (`nextBlock - 1`); 0 at most."),
    startBlock: z
      .number()
      .int()
      .nullable()
      .describe("The first block the scope indexes; null for a head row no configured scope owns any more."),
    targetBlock: z
      .number()
      .int()
      .nullable()
      .describe(
        "The newest block the scope indexes as of `observedHead`: that block, or its last final block for a scope that reads only finalized blocks (whose `lag` so never drops below its finality depth). Null before the chain was observed, and for a scope no longer configured.",
      ),
  })
  .meta({ id: "AdminScopeHead" });

/** `GET /admin/indexer` on the operator listener. */
export const adminIndexerSchema = z.object({ scopes: z.array(adminScopeHeadSchema) });

export type AdminScopeHead = z.infer<typeof adminScopeHeadSchema>;
export type AdminIndexer = z.infer<typeof adminIndexerSchema>;
