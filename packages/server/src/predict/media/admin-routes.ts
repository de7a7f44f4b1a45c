import { adminPredictMarketMediaSchema, predictMarketParamsSchema } from "@mkt/protocol";
import type { AdminApp } from "../../http/admin-app.ts";
import type { PredictMedia } from "./media.ts";

/**
 * The operator's market images, on the admin listener:
 * `PUT /admin/predict/markets/{address}/media` `{imageUrl}` sets the image
 * (an http(s) URL on a host of `IMAGE_PROXY_HOSTS`, port 80 or 443; 400
 * `IMAGE_HOST_NOT_ALLOWED` or `IMAGE_PORT_NOT_ALLOWED` otherwise) or removes it (`null`); it answers `{market, imageUrl}`.
 */
export function registerPredictMediaAdmin(app: AdminApp, { media }: { media: PredictMedia }) {
  app.put(
    "/admin/predict/markets/:address/media",
    { schema: { params: predictMarketParamsSchema, body: adminPredictMarketMediaSchema } },
    async (request) => {
      const { address } = request.params;
      const { imageUrl } = request.body;
      return media.set(address, imageUrl);
    },
  );
}
