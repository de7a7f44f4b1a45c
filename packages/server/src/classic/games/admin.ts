import {
  adminClassicGameFlagsSchema,
  classicGameFlagsSchema,
  classicQuery,
  integerParam,
} from "@mkt/protocol";
import { z } from "zod";
import { OPERATOR_TAG } from "../../http/operator-routes.ts";
import { defineRoute, type RouteSpec } from "../../http/route.ts";
import type { ClassicMetadataStore } from "./metadata-store.ts";

const paramsSchema = z.object({
  chainId: integerParam("chainId", { min: 1 }),
  address: classicQuery.address("address"),
});

/**
 * `PATCH /admin/classic/games/{chainId}/{address}` on the operator listener:
 * sets a game's flags (`isFeatured`, `isVerified`, `isVerifiedArtist`,
 * `isMarketfit`; absent fields keep their value) and answers them all. 404
 * for a drop the indexer has not seen. Cached classic reads move at once.
 */
export function classicGameAdminRoutes({ metadata }: { metadata: ClassicMetadataStore }): RouteSpec[] {
  return [
    defineRoute({
      method: "PATCH",
      path: "/admin/classic/games/:chainId/:address",
      operationId: "adminClassicGameFlagsSet",
      summary: "Sets a game's flags",
      tags: [OPERATOR_TAG],
      request: { params: paramsSchema, body: adminClassicGameFlagsSchema },
      responses: { 200: { description: "Every flag of the game.", schema: classicGameFlagsSchema } },
      handler: async (request) => {
        const { chainId, address } = request.params;
        return metadata.setFlags(chainId, address, request.body);
      },
    }),
  ];
}
