import { profileImageParamsSchema, profileImageSchema } from "@mkt/protocol";
import { notFound } from "../../errors.ts";
import { defineRoute } from "../../http/route.ts";
import { IMAGE_ROUTE, type ProfileReader } from "../../identity/index.ts";
import { asBuffer } from "../../media/index.ts";

/** `GET /market/support/identity/images/{imageId}`: avatars and pixel pfps, the images profiles link to. */
export function imageRoute(profiles: ProfileReader) {
  return defineRoute({
    method: "GET",
    path: `${IMAGE_ROUTE}/:imageId`,
    operationId: "getProfileImage",
    summary: "Fetch a profile image",
    description:
      "Serves an avatar or a pixel pfp (256×256 PNG) that a shared profile links to. A public read: with PUBLIC_READS=open it needs no API key. Artwork uploads are private and never served here (404), nor are images of deleted accounts. Cached as immutable: an image id never changes content.",
    tags: ["Shared services"],
    request: { params: profileImageParamsSchema },
    responses: {
      200: {
        description: "The image.",
        contentType: "image/png",
        schema: profileImageSchema,
      },
      400: { description: "The image id is malformed." },
      401: { description: "API key missing, malformed or invalid (PUBLIC_READS=key)." },
      404: { description: "No public image has this id." },
      429: { description: "Read budget exhausted; honour Retry-After." },
      503: { description: "The database is unavailable." },
    },
    handler: async (request, reply) => {
      const image = await profiles.publicImage(request.params.imageId);
      if (!image) throw notFound("no public image has this id");
      return reply
        .header("Content-Type", image.contentType)
        .header("X-Content-Type-Options", "nosniff")
        .send(asBuffer(image.bytes));
    },
  });
}
