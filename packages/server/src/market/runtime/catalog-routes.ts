import {
  CLAIM_PAGING,
  claimListSchema,
  claimsQuerySchema,
  DROP_PAGING,
  marketRuntimeCatalogSchema,
  marketRuntimeListSchema,
  runtimeCatalogQuerySchema,
  runtimeParamsSchema,
} from "@mkt/protocol";
import { defineRoute, type RouteSpec } from "../../http/route.ts";
import type { RuntimeCatalog } from "./catalog.ts";

const HEAD_DOC = `\`head\` is the state of the indexer scope the answer was read from (read in the same snapshot as the items): \`scope\` (\`<chainId>:registry:<registry address>\`, one per RuntimeRegistry, holding every runtime it registered), \`nextBlock\` (every block below it is indexed), \`blockHash\` (of block \`nextBlock - 1\`), \`revision\` (raised by every change of the projection: a range written, a reorg undone, a reset), \`updatedAt\` (ms), \`failure\` (why indexing currently fails, \`""\` while healthy), \`observedHead\` and \`observedAt\` (the chain's latest block as the RPC reported it, and when, in ms; 0 before the first look), \`webhookAudit\` (always \`{}\`: no provider webhooks exist, the indexer polls the RPC).`;

const VERSION_DOC =
  "`version` is a runtime id from `GET /market/runtime` (the registry's `RuntimeRegistered` events as indexed); any other is 404. The newest runtime is never inferred from a name: take the entry with `current: true`.";

/** `GET /market/runtime`, `GET /market/runtime/{version}` and `GET /market/runtime/{version}/claims`. */
export function runtimeCatalogRoutes({ catalog }: { catalog: RuntimeCatalog }): RouteSpec[] {
  return [
    defineRoute({
      method: "GET",
      path: "/runtime",
      operationId: "listRuntimes",
      summary: "List the runtimes of the current marketplace",
      description:
        "Runtime discovery: clients take `{version}` for runtime-versioned routes from here, never from a name. The list is the runtime catalog the indexer builds from the chain's RuntimeRegistry (`RuntimeRegistered` events); the configuration only says where the registry is. Newest version first; `current` marks the highest version. A runtime appears once its registration is indexed and disappears if a reorg removes it. A public read (no key when PUBLIC_READS=open), kept in the shared read cache until the registry's scope indexes more (`Cache-Control: private, max-age=60`, `public, max-age=60` when PUBLIC_READS=open; `ETag`).",
      tags: ["Discovery"],
      responses: {
        200: { description: "The runtimes.", schema: marketRuntimeListSchema },
        401: { description: "API key missing, malformed or invalid (PUBLIC_READS=key)." },
        429: { description: "Read budget exhausted." },
      },
      handler: async () => ({ runtimes: await catalog.list() }),
    }),
    defineRoute({
      method: "GET",
      path: "/runtime/:version",
      operationId: "getRuntimeCatalog",
      summary: "One runtime's catalog: contracts, drops and head",
      description: `${VERSION_DOC}

Answers the runtime (as listed), a page of its drops in creation order (block, then drop id): \`id\`, \`contract\` (the ClaimDrops contract, which is the drop's token contract), \`creator\`, \`price\` (wei), \`maxSupply\` (\`0\` = unlimited), \`claimed\` (at \`head\`), all uint256 values as decimal strings. ClaimDrops drops have no Merkle root (anyone may claim) and no token ids (a claim adds to a balance per drop). \`limit\` 1 to ${DROP_PAGING.maxLimit} (default ${DROP_PAGING.defaultLimit}); \`next\` is present while more drops follow and absent at the end; pass it as \`cursor\` (opaque, authenticated, bound to this runtime: another runtime's or a forged cursor is 400).

${HEAD_DOC}

A public read kept in the shared read cache until the registry's scope indexes more (\`Cache-Control: private, max-age=5\`, \`public, max-age=5\` when PUBLIC_READS=open; \`ETag\`).`,
      tags: ["Indexed market"],
      request: { params: runtimeParamsSchema, query: runtimeCatalogQuerySchema },
      responses: {
        200: { description: "The runtime's catalog.", schema: marketRuntimeCatalogSchema },
        400: { description: "Malformed `version`, `limit` or `cursor`." },
        401: { description: "API key missing, malformed or invalid (PUBLIC_READS=key)." },
        404: { description: "`version` is not a runtime of `GET /market/runtime`." },
        429: { description: "Read budget exhausted." },
      },
      handler: async (request) => catalog.get(request.params.version, request.query),
    }),
    defineRoute({
      method: "GET",
      path: "/runtime/:version/claims",
      operationId: "listClaims",
      summary: "An owner's claims in one runtime",
      description: `${VERSION_DOC}

Query: \`owner\` (required, \`^0x[0-9a-fA-F]{40}$\`, any case), \`dropId\` (optional drop filter, \`^[1-9][0-9]{0,77}$\`), \`limit\` 1 to ${CLAIM_PAGING.maxLimit} (default ${CLAIM_PAGING.defaultLimit}), \`cursor\` (at most ${CLAIM_PAGING.maxCursorLength} characters). A missing or malformed value is 400 \`{error}\`.

Items are the owner's \`Claimed\` events of the runtime's ClaimDrops contract (claims and airdrops) in chain order, oldest first: \`dropId\`, \`contract\`, \`owner\`, \`quantity\`, \`paid\` (wei), \`totalClaimed\` (the drop's total after the event), all as decimal strings; \`transactionHash\`, \`blockNumber\`, \`logIndex\`, \`blockTime\` (ms). ClaimDrops mints no token ids: a claim adds \`quantity\` to the owner's balance of the drop.

Paging: a keyset over (block number, log index), a position no later event changes. Follow \`next\` until it is absent: every claim the projection holds at the last page's \`head\` is returned exactly once, even while new claims are indexed during the walk (they come after the cursor). \`next\` is present whenever another claim followed the page when it was read (a short page is not the end; an absent \`next\` is), and absent when none did; a walk that ends can be repeated later to see new claims. A claim a reorg removes is gone from the next read (a page already read is not revised). The cursor is opaque, authenticated with a per-deployment secret and bound to this route, runtime, \`owner\` and \`dropId\`: a cursor of another owner, filter or runtime, or a forged or truncated one, is 400.

${HEAD_DOC}

Owner-scoped: \`Cache-Control: private, no-store\`, never kept in the shared read cache.`,
      tags: ["Indexed market"],
      request: { params: runtimeParamsSchema, query: claimsQuerySchema },
      responses: {
        200: { description: "A page of the owner's claims.", schema: claimListSchema },
        400: {
          description: "Missing or malformed `owner`, malformed `dropId`, `limit`, `version` or `cursor`.",
        },
        401: { description: "API key missing, malformed or invalid (PUBLIC_READS=key)." },
        404: { description: "`version` is not a runtime of `GET /market/runtime`." },
        429: { description: "Read budget exhausted." },
      },
      handler: async (request) => catalog.claims(request.params.version, request.query),
    }),
  ];
}
