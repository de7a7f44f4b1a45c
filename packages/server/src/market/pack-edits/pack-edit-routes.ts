import { PACK_EDIT_LIMITS, packEditParamsSchema, packEditRequestSchema, packEditSchema } from "@mkt/protocol";
import { defineRoute, type RouteSpec } from "../../http/route.ts";
import { NONCE_RULE } from "../../identity/index.ts";
import type { PackEditService } from "./service.ts";

const description = `Puts an offchain label on a pack the signing wallet holds in runtime \`version\`: \`set-name\` (a display name, at most ${PACK_EDIT_LIMITS.name} characters) or \`set-note\` (a one-line note, at most ${PACK_EDIT_LIMITS.note} characters) on \`packId\`; \`null\` clears the field. Each holder keeps its own labels; the other field is left as it was. No session: the edit carries its own wallet signature.

\`version\` is a runtime id from \`GET /market/runtime\` (never inferred from a name); any other is 404. The wallet signs \`packEditMessage({address, nonce, expires, version, action})\` (exported by \`@mkt/protocol\`): the title line, \`Wallet:\`, \`Runtime:\` with \`version\`, \`Nonce:\`, \`Expires:\`, \`Action:\` with \`JSON.stringify(parsePackEditAction(action))\`, and the closing line. The server rebuilds that text, so a signature over another runtime, another text or a hand-serialised action is refused with 401.

Ownership: the wallet holds pack \`packId\` when the indexer's projection of that runtime at its current head records a claim of drop \`packId\` by that wallet (a \`Claimed\` event with it as owner). Otherwise 403; a claim the indexer has not seen yet is a 403 until it has.

Checks as for release actions: \`nonce\` ${NONCE_RULE}, spent only when the edit is stored; \`expires\` in the future (401) and at most five minutes ahead (400); the signature the wallet's (401; 503 when a contract wallet cannot be verified), with the failed-verification budgets (429). Answers 200 with the holder's labels on the pack after the edit.`;

/** `POST /market/runtime/{version}/pack-edit`. */
export function packEditRoutes({ packEdits }: { packEdits: PackEditService }): RouteSpec[] {
  return [
    defineRoute({
      method: "POST",
      path: "/runtime/:version/pack-edit",
      operationId: "editPack",
      summary: "Name or annotate a pack the signing wallet holds",
      description,
      tags: ["Collectors"],
      request: { params: packEditParamsSchema, body: packEditRequestSchema },
      responses: {
        200: { description: "The holder's labels on the pack after the edit.", schema: packEditSchema },
        400: { description: "Malformed body, action or version; expires too far ahead." },
        401: { description: "API key invalid, signature not valid, expired, or nonce already used." },
        403: { description: "The signing wallet holds no such pack in this runtime at the current head." },
        404: { description: "`version` is not a runtime of `GET /market/runtime`." },
        429: { description: "Write budget or failed-verification budget exhausted." },
        503: { description: "The chain RPC could not verify a contract-wallet signature." },
      },
      handler: async (request) => packEdits.apply(request.params.version, request.body, { ip: request.ip }),
    }),
  ];
}
