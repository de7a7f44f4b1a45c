import {
  ARTWORK_FIELDS,
  artworkHistoryQuerySchema,
  artworkHistorySchema,
  releaseArtworkSchema,
  releaseParamsSchema,
} from "@mkt/protocol";
import { defineRoute, type RouteSpec } from "../../http/route.ts";
import { PUBLIC_READ_RULES, publicReadErrors } from "../docs.ts";
import type { ReleaseService } from "./service.ts";

const DRAFTS =
  "Drafts are their owner's alone: a draft is a 404 here like an unknown id (the owner reads its drafts with `GET /market/account/releases`). Once a release is announced, its history shows every revision, those it had as a draft included.";

const CACHE =
  "Served from the shared read cache (strong `ETag`, `If-None-Match` → 304), invalidated by every accepted release action. Also served by the first-party proxy (GET only).";

/** Artwork: the artwork of a public release and its history by revision. */
export function artworkRoutes({ releases }: { releases: ReleaseService }): RouteSpec[] {
  return [
    defineRoute({
      method: "GET",
      path: "/releases/:releaseId/artwork",
      operationId: "getReleaseArtwork",
      summary: "Read a release's artwork",
      description: `The artwork of one public release at its current \`revision\`: its \`image\`, the design's card back (\`cardImage\`), accent, pattern, mask and strokes, and one entry per rarity tier putting together \`design.cardsByRarity[tier]\`, \`design.tierImages[tier]\` and \`design.tierMasks[tier]\`.

${DRAFTS}

${CACHE} ${PUBLIC_READ_RULES}`,
      tags: ["Artwork"],
      request: { params: releaseParamsSchema },
      responses: {
        200: { description: "The artwork.", schema: releaseArtworkSchema },
        400: { description: "Malformed release id." },
        404: { description: "No public release has this id." },
        ...publicReadErrors,
      },
      handler: async (request) => releases.artwork(request.params.releaseId),
    }),
    defineRoute({
      method: "GET",
      path: "/releases/:releaseId/artwork/history",
      operationId: "listReleaseArtworkHistory",
      summary: "Read the history of a release's artwork by revision",
      description: `Every revision of one public release, newest first: the action that made it (\`create\`, \`edit\`, \`announce\`, \`reschedule\`, \`cancel\`, \`link\`), when, the status after it, what changed in the artwork since the previous revision, and the artwork as it was. A revision is recorded in the same transaction as the accepted action that made it, so the history never misses nor invents one. \`changes.fields\` names the changed artwork fields among ${ARTWORK_FIELDS.map((field) => `\`${field}\``).join(", ")}; \`cardsAdded\`, \`cardsRemoved\` and \`cardsChanged\` name cards by id. A status action changes no artwork: its \`changes\` are empty. Releases created before history began start with one revision whose \`action\` is null.

Paging: \`limit\` 1 to 50 (default 20); \`cursor\` is the \`next\` of the previous page (opaque, at most 500 characters; a cursor this API did not return is a 400); \`next\` is null on the last page. Revisions never change once written, so every revision appears on exactly one page. \`changed=artwork\` keeps the revisions that changed an artwork field.

${DRAFTS}

${CACHE} ${PUBLIC_READ_RULES}`,
      tags: ["Artwork"],
      request: { params: releaseParamsSchema, query: artworkHistoryQuerySchema },
      responses: {
        200: { description: "One page of revisions.", schema: artworkHistorySchema },
        400: {
          description:
            "Malformed release id, `limit` out of 1 to 50, an unknown `changed`, or a malformed cursor.",
        },
        404: { description: "No public release has this id." },
        ...publicReadErrors,
      },
      handler: async (request) =>
        releases.history(request.params.releaseId, {
          cursor: request.query.cursor,
          limit: request.query.limit,
          artworkOnly: request.query.changed === "artwork",
        }),
    }),
  ];
}
