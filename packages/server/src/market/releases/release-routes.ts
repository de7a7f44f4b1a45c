import {
  ownReleaseListSchema,
  PROFILE_LIMITS,
  pageQuerySchema,
  RELEASE_LIMITS,
  RELEASE_PAGE_SIZE,
  RELEASE_STATES_DOC,
  releaseActionRequestSchema,
  releaseListQuerySchema,
  releaseListSchema,
  releaseParamsSchema,
  releaseSchema,
} from "@mkt/protocol";
import { defineRoute, type RouteSpec } from "../../http/route.ts";
import { NONCE_RULE } from "../../identity/index.ts";
import { ACCOUNT_SESSION_RULES, PAGING_RULES, sessionErrors } from "../docs.ts";
import { actorOf } from "../social/directory.ts";
import type { ReleaseService } from "./service.ts";

const limits = Object.entries(RELEASE_LIMITS)
  .map(([name, value]) => `${name} ${value}`)
  .join(", ");

const actionDescription = `Applies one signed release action: \`create\`, \`edit\`, a status transition, or \`delete\` of a draft. No session: every action carries its own wallet signature; a sign-in, deletion or wallet-link signature signs another text and is refused with 401.

The wallet signs \`releaseActionMessage({address, nonce, expires, action})\` (exported by \`@mkt/protocol\`): a title line, \`Wallet:\`, \`Nonce:\`, \`Expires:\`, \`Action:\` with \`JSON.stringify(parseReleaseAction(action))\`, and a closing line saying the signature changes offchain catalog data only. The server rebuilds that text from the parsed \`action\` of the body, so an action serialised without the shared parser (other key order, untrimmed text, defaults left out) does not verify (401).

Checks, each refused as stated:
- \`nonce\` ${NONCE_RULE}; it is spent only in the transaction that applies the action, so a refused action leaves it unused;
- \`expires\` in the future (401) and at most five minutes ahead (400);
- the signature must be the wallet's (401; 503 when the chain cannot be asked), verified exactly like sign-in (EOAs locally, contract wallets through ERC-1271 / ERC-6492 on chain 8453) with the same failed-verification budgets (429). The \`Origin\` header is not checked: the text names no website and a per-action signature is meant for direct clients too;
- the release must exist (404), and the signing wallet must belong to the owner's account: the primary wallet or one linked with \`wallet-link\` (403);
- \`revision\` must be the release's current one (409), the action allowed in its status (409), \`launchAt\` in the future (400);
- \`link\`: \`version\` must be a runtime of \`GET /market/runtime\` (404), the indexer must have seen \`dropId\` in it (409, retry later), the drop's creator must be a wallet of the owner's account (403), and a drop is linked to one release at most (409).

\`create\` makes the signing wallet's account the owner (an account is created for a wallet that has none, as sign-in does) and answers 201 with the release; the other actions answer 200 with it, \`delete\` answers 204. Every accepted action invalidates the cached release reads at once. Not idempotent by key: the nonce already makes each signed action single-use.

Drafts are visible only to their owner, and only in these answers: the public reads never show them. Size limits (UTF-16 code units, counts): ${limits}.

${RELEASE_STATES_DOC}`;

const readErrors = {
  400: { description: "offset is not an integer from 0 to 10000." },
  401: { description: "API key missing, malformed or invalid (PUBLIC_READS=key)." },
  429: { description: "Read budget exhausted." },
} as const;

/** `POST /market/releases`, the public release reads and the owner's own list. */
export function releaseRoutes({ releases }: { releases: ReleaseService }): RouteSpec[] {
  return [
    defineRoute({
      method: "POST",
      path: "/releases",
      operationId: "applyReleaseAction",
      summary: "Create, edit, move or delete a release with a signed action",
      description: actionDescription,
      tags: ["Creators"],
      request: { body: releaseActionRequestSchema },
      responses: {
        200: { description: "The release after the action.", schema: releaseSchema },
        201: { description: "The created release (status `draft`, revision 1).", schema: releaseSchema },
        204: { description: "The draft was deleted." },
        400: { description: "Malformed body or action, expires too far ahead, launchAt not in the future." },
        401: { description: "API key invalid, signature not valid, expired, or nonce already used." },
        403: {
          description:
            "The signing wallet is not a wallet of the owner's account (or of the drop's creator).",
        },
        404: { description: "Unknown release, or unknown runtime version in `link`." },
        409: {
          description: "Stale revision, action not allowed in the current status, drop not seen or taken.",
        },
        429: { description: "Write budget or failed-verification budget exhausted." },
        503: { description: "The chain RPC could not verify a contract-wallet signature." },
      },
      handler: async (request, reply) => {
        const outcome = await releases.apply(request.body, { ip: request.ip });
        if (outcome.kind === "deleted") return reply.code(204).send();
        return reply.code(outcome.kind === "created" ? 201 : 200).send(outcome.release);
      },
    }),
    defineRoute({
      method: "GET",
      path: "/releases",
      operationId: "listReleases",
      summary: "List the public releases",
      description: `The public catalog: announced, cancelled and live releases (cancelled ones stay listed so that followers see the cancellation; drafts are never listed), last changed first, ${RELEASE_PAGE_SIZE} per page. The one integer query parameter is \`offset\` (0 to 10000): how many releases to skip. A release that changes while a client pages moves to the front, so a client iterating every page may see it twice (dedupe by \`id\`) or find it on the first page again.

Each release is a summary: \`cardsOmitted: true\` and \`design.cardsByRarity\` empty; read \`GET /market/releases/{releaseId}\` for the complete release before an edit. \`artworkHash\` changes exactly when the listed artwork changes (a listed release's image, card image, tier images or any card's image or firstEditionImage, or which releases are listed), so a client may keep its artwork while it stays the same.

The session is optional. Anonymous (no \`Authorization\` header directly, no \`mkt-session\` cookie through \`/app/api\`): \`wishlist\` and \`wishedReleases\` are \`[]\` and the answer is the one every anonymous caller gets, from the read cache with a strong \`ETag\` (\`If-None-Match\` → 304) and \`Cache-Control: private, max-age=30\` (\`public, max-age=30\` when PUBLIC_READS=open, where no key is needed). Signed in with the account session (\`Authorization: Bearer <token>\` with \`Origin\` and \`X-MKT-Wallet\` as on every session route; through \`/app/api\` the \`mkt-session\` cookie and \`X-MKT-Wallet\`): \`wishlist\` holds the ids on the caller's wishlist, oldest wish first, and \`wishedReleases\` a summary (\`cardsOmitted: true\`) of each in the same order, the same on every page, at most ${PROFILE_LIMITS.wishlist}; only releases the caller may see (public ones and its own drafts). Such an answer is \`Cache-Control: private, no-store\`, without \`ETag\`, never from nor into the read cache. Every answer carries \`Vary: Origin, Authorization, Cookie\`. A credential that is presented but refused (malformed, expired, signed out, wrong \`Origin\` or \`X-MKT-Wallet\`) is a 401 like on every session route, never an anonymous answer; a chat session is a 403. The wishlist is edited with the \`wishlist-add\` and \`wishlist-remove\` kinds of \`POST /market/account\`.

A public read: no key needed when PUBLIC_READS=open. Also served by the first-party proxy (GET only); there a signed-in read spends the caller's account budget, an anonymous one the client's anonymous budget.`,
      tags: ["Creators"],
      request: { query: releaseListQuerySchema },
      responses: {
        200: { description: "One page of releases.", schema: releaseListSchema },
        ...readErrors,
        401: {
          description:
            "API key missing, malformed or invalid (PUBLIC_READS=key), or a session credential that is presented but refused.",
        },
        403: { description: "A chat or access session: the wishlist needs the account session." },
      },
      handler: async (request) =>
        releases.list(request.query.offset, request.session?.accountId ?? undefined),
    }),
    defineRoute({
      method: "GET",
      path: "/releases/:releaseId",
      operationId: "getRelease",
      summary: "Read one complete release",
      description:
        "One announced, cancelled or live release with every field, its cards included (`cardsOmitted: false`): the complete draft an edit replaces. A draft is a 404 here like an unknown id: drafts are visible to their owner only, in the answers of `POST /market/releases`. A public read from the shared cache, invalidated by every accepted action.",
      tags: ["Creators"],
      request: { params: releaseParamsSchema },
      responses: {
        200: { description: "The release.", schema: releaseSchema },
        ...readErrors,
        400: { description: "Malformed release id." },
        404: { description: "No public release has this id." },
      },
      handler: async (request) => releases.get(request.params.releaseId),
    }),
    defineRoute({
      method: "GET",
      path: "/account/releases",
      operationId: "listOwnReleases",
      summary: "List the caller's own releases, drafts included",
      description: `Every release of the caller's account, whatever its status (\`draft\`, \`announced\`, \`cancelled\`, \`live\`), complete (\`cardsOmitted: false\`), last changed first: the only read that shows drafts, and only to their owner. Another account's releases never appear, whichever of its wallets signed them.

${PAGING_RULES} A release changed while a client pages moves to the front, so it may be missed by the pages after the cursor; start again from the first page to see it.

${ACCOUNT_SESSION_RULES} Private: never kept by the read cache nor by shared HTTP caches. Also served by the first-party proxy (GET only).`,
      tags: ["Creators"],
      request: { query: pageQuerySchema },
      responses: {
        200: { description: "One page of the caller's releases.", schema: ownReleaseListSchema },
        400: {
          description:
            "`limit` out of 1 to 100, or a cursor longer than 500 characters or not returned by this list.",
        },
        ...sessionErrors,
        403: { description: "A chat or access session: this list needs the account session." },
      },
      handler: async (request) => releases.listOwn(actorOf(request.session).accountId, request.query),
    }),
  ];
}
