import { adminPredictMarketMediaSchema, predictMarketParamsSchema } from "@mkt/protocol";
import { OPERATOR_TAG } from "../../http/operator-routes.ts";
import { defineRoute, type RouteSpec } from "../../http/route.ts";
import type { PredictMedia } from "./media.ts";

/**
 * The operator's market images, on the admin listener:
 * `PUT /admin/predict/markets/{address}/media` `{imageUrl}` sets the image
 * (an http(s) URL on a host of `IMAGE_PROXY_HOSTS`, port 80 or 443; 400
 * `IMAGE_HOST_NOT_ALLOWED` or `IMAGE_PORT_NOT_ALLOWED` otherwise) or removes it (`null`); it answers `{market, imageUrl}`.
 */
export function predictMediaAdminRoutes({ media }: { media: PredictMedia }): RouteSpec[] {
  return [
    defineRoute({
      method: "PUT",
      path: "/admin/predict/markets/:address/media",
      operationId: "adminPredictMarketMediaSet",
      summary: "Sets or removes a market's image",
      tags: [OPERATOR_TAG],
      request: { params: predictMarketParamsSchema, body: adminPredictMarketMediaSchema },
      responses: { 200: { description: "`{market, imageUrl}`." } },
      handler: async (request) => {
        const { address } = request.params;
        const { imageUrl } = request.body;
        return media.set(address, imageUrl);
      },
    }),
  ];
}
