import { PREDICT_ART_SIZE, type PredictMarketMedia } from "@mkt/protocol";
import type { FactoryRole } from "../../chains/index.ts";
import type { Database } from "../../db/index.ts";
import { badRequest, conflict, notFound, UnavailableError } from "../../errors.ts";
import { artUrl, type ImageLinks, type ImageProxyPolicy } from "../../media/index.ts";
import type { Clock } from "../../quotas/limiter.ts";

/** Revision source of the media route's shared cache: moves when an operator sets or removes an image. */
export const PREDICT_MEDIA_SOURCE = "predict-media";

export interface PredictMediaDeps {
  db: Database;
  clock: Clock;
  /** The predict role (chains/roles.ts): the factory scope whose projection names the markets. */
  predict: FactoryRole | undefined;
  /** `PUBLIC_URL`: the generated art is served by this server's art route. */
  publicUrl: string;
  /** The classic image links: the operator's image is a URL of the same signed proxy. */
  links: ImageLinks;
  /** The classic image proxy's policy (`IMAGE_PROXY_HOSTS`, ports), which an operator URL must pass. */
  proxy: ImageProxyPolicy;
  /** Announces PREDICT_MEDIA_SOURCE to every replica. */
  bump: () => Promise<void>;
}

export interface PredictMedia {
  /** The media of a market of the projection (lowercase address); 404 MARKET_NOT_FOUND otherwise. */
  get(address: string): Promise<PredictMarketMedia>;
  /**
   * Sets (or with null removes) the operator's image of a market (lowercase
   * address). The URL must be http(s), without credentials, on an allowlisted
   * host (400 otherwise); the market need not be in the projection yet.
   * 409 when the deployment follows no prediction chain.
   */
  set(address: string, imageUrl: string | null): Promise<{ market: string; imageUrl: string | null }>;
}

/**
 * A market's media: the art the feed generates for every market (the classic
 * art route's SVG, subject `market`, which shows no question text), and the
 * image the operator set (stored as given, answered only as a signed URL of
 * the classic image proxy, which fetches allowlisted hosts only, PNG, JPEG,
 * WebP or GIF, at most 5 MB, within 5 s).
 */
export function createPredictMedia({
  db,
  clock,
  predict,
  publicUrl,
  links,
  proxy,
  bump,
}: PredictMediaDeps): PredictMedia {
  const chainId = predict?.deployment.chainId ?? 0;
  const scope = predict?.scope;

  /** An operator URL the proxy would fetch, or a 400 saying why not. */
  const checkImageUrl = (imageUrl: string): string => {
    let url: URL;
    try {
      url = new URL(imageUrl);
    } catch {
      throw badRequest("imageUrl is not an absolute URL", "INVALID_INPUT");
    }
    if (url.protocol !== "https:" && url.protocol !== "http:")
      throw badRequest("imageUrl must be an http or https URL", "INVALID_INPUT");
    if (url.username !== "" || url.password !== "")
      throw badRequest("imageUrl must not carry credentials", "INVALID_INPUT");
    const { refusal } = proxy.check(url.href);
    if (refusal?.code === "IMAGE_PORT_NOT_ALLOWED")
      throw badRequest(`imageUrl: ${refusal.message}`, "IMAGE_PORT_NOT_ALLOWED");
    if (refusal)
      throw badRequest(
        `imageUrl's host ${url.hostname} is not on the image proxy's allowlist (IMAGE_PROXY_HOSTS)`,
        "IMAGE_HOST_NOT_ALLOWED",
      );
    return url.href;
  };

  return {
    async get(address: string): Promise<PredictMarketMedia> {
      if (scope === undefined) throw new UnavailableError("this deployment follows no prediction chain");
      const { rows } = await db.withConnection((connection) =>
        connection.query<{ image_url: string | null }>(
          `SELECT (SELECT image_url FROM predict_market_media WHERE chain_id = $1 AND address = $3) AS image_url
           FROM predict_markets WHERE chain_id = $1 AND scope = $2 AND address = $3`,
          [chainId, scope, address],
        ),
      );
      const row = rows[0];
      if (row === undefined)
        throw notFound(`market ${address} is not in the prediction feed's projection`, "MARKET_NOT_FOUND");
      const images: PredictMarketMedia["images"] = [
        { kind: "generated", url: artUrl(publicUrl, chainId, address, "market"), ...PREDICT_ART_SIZE },
      ];
      // Only as a proxy URL: an image the proxy no longer serves (the allowlist changed) is left out.
      if (row.image_url !== null && !proxy.check(row.image_url).refusal)
        images.push({ kind: "operator", url: links.link(row.image_url, false) ?? row.image_url });
      return { market: address, images };
    },

    async set(
      address: string,
      imageUrl: string | null,
    ): Promise<{ market: string; imageUrl: string | null }> {
      if (scope === undefined) throw conflict("this deployment follows no prediction chain");
      const stored = imageUrl === null ? null : checkImageUrl(imageUrl);
      await db.withConnection((connection) =>
        stored === null
          ? connection.query("DELETE FROM predict_market_media WHERE chain_id = $1 AND address = $2", [
              chainId,
              address,
            ])
          : connection.query(
              `INSERT INTO predict_market_media (chain_id, address, image_url, updated_at) VALUES ($1, $2, $3, $4)
               ON CONFLICT (chain_id, address) DO UPDATE SET image_url = EXCLUDED.image_url,
                 updated_at = EXCLUDED.updated_at`,
              [chainId, address, stored, new Date(clock.now()).toISOString()],
            ),
      );
      await bump();
      return { market: address, imageUrl: stored };
    },
  };
}
