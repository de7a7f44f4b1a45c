import { PREDICT_ART_SIZE, predictMarketMediaSchema, predictMarketParamsSchema } from "@mkt/protocol";
import { defineRoute, type RouteSpec } from "../../http/route.ts";
import { keyRefused, projectionUnavailable } from "../responses.ts";
import type { PredictMedia } from "./media.ts";

/** `GET /markets/{address}/media` of the prediction feed. */
export function predictMediaRoutes({ media }: { media: PredictMedia }): RouteSpec[] {
  return [
    defineRoute({
      method: "GET",
      path: "/markets/:address/media",
      operationId: "predictMarketMedia",
      summary: "A market's images",
      description: `The images of the market at \`address\` (\`^0x[0-9a-fA-F]{40}$\`, any case), in \`images\`, each \`{kind, url, width?, height?}\`:

- \`generated\`, always first: art the server generates for every market, an SVG (\`image/svg+xml\`, ${PREDICT_ART_SIZE.width} × ${PREDICT_ART_SIZE.height}) at the public art route \`/classic/art/{chainId}/{address}/market.svg\` (no API key, for \`<img>\` tags; the same bytes for the same market; no script, no external reference, and no text of the market's question).
- \`operator\`, when the operator set one: the operator's image as a signed URL of the image proxy \`/classic/image/{signature}?url=…\` (no API key; hosts of the operator's allowlist only, PNG, JPEG, WebP or GIF, at most 5 MB, 5 seconds; see that route). The original URL is never answered.

404 \`MARKET_NOT_FOUND\` when the official projection does not have the market. Kept in the shared read cache until the prediction scope indexes another block or the operator changes an image (\`Cache-Control: private, max-age=5\`, \`ETag\`).`,
      tags: ["Markets"],
      request: { params: predictMarketParamsSchema },
      responses: {
        200: { description: "The market's images.", schema: predictMarketMediaSchema },
        400: { description: "`address` is not a 20-byte hex address (`INVALID_INPUT`)." },
        404: { description: "The projection has no market at `address` (`MARKET_NOT_FOUND`)." },
        429: keyRefused,
        503: projectionUnavailable,
      },
      handler: async (request) => media.get(request.params.address),
    }),
  ];
}
