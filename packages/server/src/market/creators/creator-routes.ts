import {
  creatorDropListSchema,
  creatorParamsSchema,
  creatorReleaseListSchema,
  creatorSchema,
  pageQuerySchema,
} from "@mkt/protocol";
import { defineRoute, type RouteSpec } from "../../http/route.ts";
import { PAGING_RULES, PUBLIC_READ_RULES, publicReadErrors } from "../docs.ts";
import type { CreatorService } from "./service.ts";

const WHO =
  "A creator is named by a wallet. The profile, the follow counts and the releases belong to the account holding that wallet (any of its wallets names it); the drops are those the wallet itself created (`DropCreated` in a runtime of `GET /market/runtime`, as indexed). A wallet that no account holds and that created no drop is a 404.";

const errors = {
  400: { description: "`address` is not an address, `limit` out of 1 to 100, or a malformed cursor." },
  404: { description: "No account holds the wallet and it created no drop." },
  ...publicReadErrors,
};

/** Creators: a creator's public profile, their public releases and their onchain drops. */
export function creatorRoutes({ creators }: { creators: CreatorService }): RouteSpec[] {
  return [
    defineRoute({
      method: "GET",
      path: "/creators/:address",
      operationId: "getCreator",
      summary: "Read a creator's public profile",
      description: `The shared profile of the account holding the wallet (null when no account holds it), how many accounts follow it and it follows, how many public releases it has (drafts never count) and how many drops the wallet created.

${WHO}

Not cached: profiles and follows change without a revision the read cache could follow. Also served by the first-party proxy. ${PUBLIC_READ_RULES}`,
      tags: ["Creators"],
      request: { params: creatorParamsSchema },
      responses: { 200: { description: "The creator.", schema: creatorSchema }, ...errors },
      handler: async (request) => creators.get(request.params.address),
    }),
    defineRoute({
      method: "GET",
      path: "/creators/:address/releases",
      operationId: "listCreatorReleases",
      summary: "List a creator's public releases",
      description: `The announced, cancelled and live releases of the account holding the wallet, as summaries (\`cardsOmitted: true\`; read \`GET /market/releases/{releaseId}\` for the cards), last changed first. Drafts never appear: they are their owner's alone.

${PAGING_RULES} A release changed while a client pages moves to the front, so start again from the first page to see it.

${WHO}

Served from the shared read cache, invalidated by every accepted release action (a wallet newly linked to an account shows within 30 seconds). Also served by the first-party proxy. ${PUBLIC_READ_RULES}`,
      tags: ["Creators"],
      request: { params: creatorParamsSchema, query: pageQuerySchema },
      responses: {
        200: { description: "One page of releases.", schema: creatorReleaseListSchema },
        ...errors,
      },
      handler: async (request) => creators.releases(request.params.address, request.query),
    }),
    defineRoute({
      method: "GET",
      path: "/creators/:address/drops",
      operationId: "listCreatorDrops",
      summary: "List the drops a creator's wallet created onchain",
      description: `The drops the wallet created in the market's runtimes, newest first (creation block, then runtime scope, then drop id): price, supply and packs claimed so far as decimal strings, and the public release linked to the drop (\`link\`), if any.

${PAGING_RULES} The cursor is a keyset over the creation block, so drops created while a client pages never shift the pages after the cursor.

${WHO}

Served from the shared read cache, invalidated by every commit of the indexer in a market runtime's scope and by every accepted release action. Also served by the first-party proxy. ${PUBLIC_READ_RULES}`,
      tags: ["Creators"],
      request: { params: creatorParamsSchema, query: pageQuerySchema },
      responses: { 200: { description: "One page of drops.", schema: creatorDropListSchema }, ...errors },
      handler: async (request) => creators.drops(request.params.address, request.query),
    }),
  ];
}
