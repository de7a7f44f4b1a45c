import type { ServerSecrets } from "../secrets/index.ts";
import { createImageLinks, type ImageLinks } from "./links.ts";
import type { ImageProxyPolicy } from "./proxy-policy.ts";

/** The deployment's image links: every replica derives the same signing key from its server secret. */
export async function createClassicImageLinks({
  publicUrl,
  secrets,
  policy,
}: {
  publicUrl: string;
  secrets: ServerSecrets;
  /** The image proxy's policy (the fetcher's too): only URLs it accepts are rewritten. */
  policy: ImageProxyPolicy;
}): Promise<ImageLinks> {
  return createImageLinks({
    publicUrl,
    key: await secrets.key("classic-images", "classic-image-proxy"),
    policy,
  });
}
