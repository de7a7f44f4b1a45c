import { adminClassicGameFlagsSchema, classicQuery, integerParam } from "@mkt/protocol";
import { z } from "zod";
import type { AdminApp } from "../../http/admin-app.ts";
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
export function registerClassicGameAdmin(app: AdminApp, { metadata }: { metadata: ClassicMetadataStore }) {
  app.patch(
    "/admin/classic/games/:chainId/:address",
    { schema: { params: paramsSchema, body: adminClassicGameFlagsSchema } },
    async (request) => {
      const { chainId, address } = request.params;
      return metadata.setFlags(chainId, address, request.body);
    },
  );
}
