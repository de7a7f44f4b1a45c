import { classicRecoverySchema, classicTxHashParamsSchema } from "@mkt/protocol";
import { defineRoute, type RouteSpec } from "../../http/route.ts";
import { keyAndBearerAccess as keyAndBearer, keyRefused } from "../responses.ts";
import type { ClassicRecoveryService } from "./recovery.ts";

/** `GET /classic/events/{txHash}`: event recovery (docs/classic.md, Recovery and social tools). */
export function classicRecoveryRoutes({ recovery }: { recovery: ClassicRecoveryService }): RouteSpec[] {
  return [
    defineRoute({
      method: "GET",
      path: "/events/:txHash",
      operationId: "classicRecoverEvents",
      summary: "Re-apply a transaction's classic events",
      description: `Authenticated recovery for when normal indexing has not produced the expected state: reads the transaction's receipt on the classic chain and re-applies, through the indexer's own apply step, every log of a classic contract (the drop factory, a game's drop, its ticket token) that the projection has not recorded. Which logs are recorded is decided by a dry run of the same handlers under the indexer head's lock, so the call is idempotent: a second call applies nothing and changes nothing (\`status: "already_indexed"\`, \`applied: 0\`).

\`status\`: \`applied\` (this call applied \`applied\` logs; every cached classic read is rebuilt on every replica), \`already_indexed\`, \`pending\` (the indexer has not reached the block yet; it will apply the logs in order, nothing is done now), \`not_classic\` (no log of a classic contract; a reverted transaction has none). \`events\` lists the transaction's classic logs in log order with \`applied\` per log.

Works on every replica, whether or not it runs the indexer (the write takes the indexer head's row lock). A transaction the chain has no receipt for (unknown, or still in the mempool) is 404 \`TRANSACTION_NOT_FOUND\`; a server that follows no classic chain answers 503 \`RECOVERY_UNAVAILABLE\`, and an RPC that cannot answer 503 \`SERVICE_UNAVAILABLE\` with \`Retry-After\`. A GET for the document's sake, never cached (\`no-store\`); it spends the search and API-key write budget. ${keyAndBearer}`,
      tags: ["Tools"],
      request: { params: classicTxHashParamsSchema },
      responses: {
        200: { description: "What the receipt holds and what was applied.", schema: classicRecoverySchema },
        400: { description: "`txHash` is not 0x and 64 hex digits (`VALIDATION_ERROR`)." },
        401: { description: "Bearer token missing, expired or invalid (`UNAUTHORIZED`)." },
        404: { description: "No receipt on the classic chain (`TRANSACTION_NOT_FOUND`)." },
        429: keyRefused,
        503: {
          description:
            'No classic chain on this server (`RECOVERY_UNAVAILABLE`), or the database or the classic chain\'s RPC cannot answer now (`SERVICE_UNAVAILABLE`, with `Retry-After`: a failing RPC is never read as "no receipt").',
        },
      },
      handler: (request) => recovery.recover(request.params.txHash),
    }),
  ];
}
