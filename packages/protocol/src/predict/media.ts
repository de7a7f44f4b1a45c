import { z } from "zod";
import { address } from "./common.ts";

/**
 * A market's media: the art the feed generates for every
 * market and the image an operator set, if any. Every URL is one of the
 * server's: the art route, or the signed image proxy (never the operator's
 * original URL).
 */

/** The generated art's size in pixels (an SVG with this `width`, `height` and `viewBox`). */
export const PREDICT_ART_SIZE = { width: 400, height: 560 } as const;

/** Longest operator image URL the admin route accepts. */
export const PREDICT_MEDIA_URL_MAX = 2048;

export const predictMarketMediaImageSchema = z
  .object({
    kind: z
      .enum(["generated", "operator"])
      .describe(
        "`generated`: the feed's SVG art (`image/svg+xml`), present for every market; `operator`: the image the operator set, through the image proxy (PNG, JPEG, WebP or GIF).",
      ),
    url: z.string().describe("An absolute URL of this server: the art route or a signed image-proxy URL."),
    width: z.number().int().positive().optional().describe("Pixels, when known (the generated art's)."),
    height: z.number().int().positive().optional().describe("Pixels, when known (the generated art's)."),
  })
  .meta({ id: "PredictMarketMediaImage" });
export type PredictMarketMediaImage = z.output<typeof predictMarketMediaImageSchema>;

export const predictMarketMediaSchema = z
  .object({
    market: address("The market contract"),
    images: z
      .array(predictMarketMediaImageSchema)
      .describe("The generated art first, then the operator's image when one is set (at most one)."),
  })
  .meta({ id: "PredictMarketMedia" });
export type PredictMarketMedia = z.output<typeof predictMarketMediaSchema>;

/** Admin listener: `PUT /admin/predict/markets/{address}/media` body. */
export const adminPredictMarketMediaSchema = z.object({
  imageUrl: z
    .string()
    .max(PREDICT_MEDIA_URL_MAX)
    .nullable()
    .describe(
      `An http(s) image URL on a host of \`IMAGE_PROXY_HOSTS\` (at most ${PREDICT_MEDIA_URL_MAX} characters), or null to remove the image.`,
    ),
});
export type AdminPredictMarketMedia = z.output<typeof adminPredictMarketMediaSchema>;
