import { secretsEqual } from "../keys/secrets.ts";
import { hmac } from "../secrets/index.ts";
import type { ImageProxyPolicy } from "./proxy-policy.ts";

/**
 * Image URLs in classic answers. An image the proxy will serve
 * (the proxy policy accepts it: http(s), port 80 or 443, a host on
 * `IMAGE_PROXY_HOSTS`) is rewritten to the image route of ours,
 * `/classic/image/{signature}?url=…`, which fetches it (size and type limits,
 * no redirects, public addresses only); the signature is an HMAC of the
 * original URL under a server secret, so the route only fetches URLs this
 * server emitted and is no open proxy. Every other image is answered as the
 * creator gave it (a rewritten URL would only answer 403), and so is every
 * image with `X-Bypass-Image-Proxy: true`. URLs already on `PUBLIC_URL` (the
 * generated card art) are never rewritten.
 */
export interface ImageLinks {
  /** The URL an answer carries for `url`: proxied when the proxy serves it and not `bypass`; null stays null. */
  link(url: string | null, bypass: boolean): string | null;
  /** Whether `signature` is this server's signature of `url`. */
  verify(url: string, signature: string): boolean;
}

export const IMAGE_BYPASS_HEADER = "x-bypass-image-proxy";

/** Whether a request asked for original image URLs (`X-Bypass-Image-Proxy: true`). */
export const bypassesImageProxy = (headers: Record<string, string | string[] | undefined>): boolean =>
  headers[IMAGE_BYPASS_HEADER] === "true";

export function createImageLinks({
  publicUrl,
  key,
  policy,
}: {
  publicUrl: string;
  key: Buffer;
  /** The image proxy's policy: only URLs it accepts are rewritten. */
  policy: ImageProxyPolicy;
}): ImageLinks {
  const own = `${publicUrl}/`;
  const sign = (url: string) => hmac(key, `classic-image:${url}`).slice(0, 32);
  return {
    link(url, bypass) {
      if (url === null || bypass || url.startsWith(own) || policy.check(url).refusal) return url;
      return `${publicUrl}/classic/image/${sign(url)}?url=${encodeURIComponent(url)}`;
    },
    verify: (url, signature) => secretsEqual(signature, sign(url)),
  };
}

/**
 * The generated art of a game without creator metadata: an SVG of ours per
 * card (`card` is the card id, `pack` the unopened pack), served publicly
 * by the art route.
 */
export const artUrl = (
  publicUrl: string,
  chainId: number,
  address: string,
  what: number | "pack" | "market",
) => `${publicUrl}/classic/art/${chainId}/${address}/${what}.svg`;
