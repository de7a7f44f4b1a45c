import { z } from "zod";

/**
 * The claims `head` object: the state of one
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

const replicaIdSchema = z
  .string()
  .describe(
    "A replica's id (`MKT_REPLICA_ID`, else `<hostname>-<pid>`), as its start banner and log lines show it.",
  );

/** Who writes a scope: the replica holding its writer lock, read from the lock itself. */
export const adminScopeWriterSchema = z
  .object({
    replica: replicaIdSchema
      .nullable()
      .describe(
        "The replica holding the scope's writer lock now, read from the lock's own database session: null when no replica holds it (a crashed holder's session ends with it, so its name never lingers). Empty when a process without a replica id holds it.",
      ),
    thisReplica: z.boolean().describe("The replica that answered holds the lock."),
    holdOffUntil: z
      .number()
      .int()
      .nullable()
      .describe(
        "Unix ms until which the replica that answered stays away from the scope after a hand-off; null when it does not.",
      ),
  })
  .meta({ id: "AdminScopeWriter" });

/** One indexer scope as the operator listener lists it (`GET /admin/indexer`): its head and its progress. */
export const adminScopeHeadSchema = headSchema
  .extend({
    writer: adminScopeWriterSchema,
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
export const adminIndexerSchema = z.object({
  replica: replicaIdSchema.describe("The replica that answered."),
  indexing: z
    .boolean()
    .describe("The replica that answered runs the indexer (false when started with `MKT_INDEXER=0`)."),
  scopes: z.array(adminScopeHeadSchema),
});

/** `POST /admin/indexer/{scope}/handoff` on the operator listener. */
export const adminIndexerScopeParamsSchema = z.object({ scope: z.string().min(1).max(100) });

/**
 * The body of `POST /admin/indexer/handoff` and `POST /admin/indexer/{scope}/handoff` (may be empty:
 * every field has a default).
 */
export const adminIndexerHandOffRequestSchema = z
  .object({
    holdOffSeconds: z
      .number()
      .int()
      .min(1)
      .max(3600)
      .optional()
      .describe("Seconds the replica stays away from the scope after releasing it (default 30)."),
  })
  .strict();

/** What a hand-off did to one scope. */
export const adminIndexerHandOffSchema = z
  .object({
    scope: z.string(),
    released: z
      .boolean()
      .describe("The replica that answered held the lock and released it after the batch in flight."),
    writer: replicaIdSchema.nullable().describe("The replica that held the lock when the request arrived."),
    takenBy: replicaIdSchema
      .nullable()
      .describe(
        "The replica that took the lock within a short wait (5 s) after the release; null when none did.",
      ),
    holdOffUntil: z
      .number()
      .int()
      .nullable()
      .describe(
        "Unix ms until which the releasing replica stays away from the scope; null when nothing was released.",
      ),
  })
  .meta({ id: "AdminIndexerHandOff" });

/** The answer of a hand-off request: the replica that answered and each scope it was asked to hand off. */
export const adminIndexerHandOffsSchema = z.object({
  replica: replicaIdSchema.describe("The replica that answered."),
  handOffs: z.array(adminIndexerHandOffSchema),
});

export type AdminIndexerHandOff = z.infer<typeof adminIndexerHandOffSchema>;
export type AdminIndexerHandOffs = z.infer<typeof adminIndexerHandOffsSchema>;
export type AdminIndexerHandOffRequest = z.infer<typeof adminIndexerHandOffRequestSchema>;

export type AdminScopeHead = z.infer<typeof adminScopeHeadSchema>;
export type AdminIndexer = z.infer<typeof adminIndexerSchema>;
