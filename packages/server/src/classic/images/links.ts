import type { ServerSecrets } from "../../secrets/index.ts";
import { createImageLinks, type ImageLinks } from "../images.ts";

/** The deployment's image links: every replica derives the same signing key from its server secret. */
export async function createClassicImageLinks({
  publicUrl,
  secrets,
}: {
  publicUrl: string;
  secrets: ServerSecrets;
}): Promise<ImageLinks> {
  return createImageLinks({ publicUrl, key: await secrets.key("classic-images", "classic-image-proxy") });
}
