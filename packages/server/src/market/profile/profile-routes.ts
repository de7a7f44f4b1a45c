import {
  PFP_STATES_DOC,
  profileLookupParamsSchema,
  profileLookupSchema,
  USERNAME_PATTERN,
} from "@mkt/protocol";
import { notFound } from "../../errors.ts";
import { defineRoute } from "../../http/route.ts";
import type { ProfileReader } from "../../identity/index.ts";

/** `GET /market/support/identity/profiles/x/{username}`: the shared profile lookup by X username. */
export function profileLookupRoute(profiles: ProfileReader) {
  return defineRoute({
    method: "GET",
    path: "/support/identity/profiles/x/:username",
    operationId: "getSharedProfileByX",
    summary: "Look up a shared profile by verified X username",
    description: `Resolves the account whose **verified** X connection has this username (case-insensitive) and answers its shared profile. Unverified claims are never matched: a connection is verified only through X OAuth or by the operator. Needs an API key whatever PUBLIC_READS says.

Every string field is present; "" stands for absent. Image URLs are absolute, under PUBLIC_URL, and served by \`GET /market/support/identity/images/{imageId}\`. \`pixelPfps[].createdAt\` is an ISO 8601 time.

${PFP_STATES_DOC}`,
    tags: ["Shared services"],
    request: { params: profileLookupParamsSchema },
    responses: {
      200: { description: "The profile.", schema: profileLookupSchema },
      400: { description: `The username does not match ${USERNAME_PATTERN.source}.` },
      401: { description: "API key missing, malformed or invalid." },
      404: { description: "No account has a verified X connection with this username." },
      429: { description: "Read budget exhausted; honour Retry-After." },
      503: { description: "The key lookup or the database is unavailable." },
    },
    handler: async (request, reply) => {
      const profile = await profiles.ofVerifiedX(request.params.username);
      if (!profile) throw notFound("no profile has a verified X account with this username");
      return { ok: true as const, profile };
    },
  });
}
