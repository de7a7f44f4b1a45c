import { DEFAULT_ODDS_BPS } from "@mkt/chain";
import {
  CLASSIC_ALLOWLIST_MAX_ENTRIES,
  CLASSIC_CREATOR_LINK_MAX,
  CLASSIC_CREATOR_URL_MAX,
  CLASSIC_DRAFT_MAX_ACCOUNT_BYTES,
  CLASSIC_DRAFT_MAX_BODY_BYTES,
  CLASSIC_DRAFT_MAX_CARDS,
  CLASSIC_DRAFTS_MAX_LIMIT,
  CLASSIC_DRAFTS_PER_ACCOUNT,
  CLASSIC_LIVE_DEFAULT_ODDS_BPS,
  CLASSIC_LIVE_TOKEN_NAME_SUFFIX,
  CLASSIC_LIVE_TOKEN_SYMBOL_SUFFIX,
  CLASSIC_PACK_NAME_MAX,
  classicAllowlistResultSchema,
  classicConfirmRequestSchema,
  classicConfirmSchema,
  classicDraftDeletedSchema,
  classicDraftListQuerySchema,
  classicDraftListSchema,
  classicDraftParamsSchema,
  classicDraftPollRequestSchema,
  classicDraftPollSchema,
  classicDraftResponseSchema,
  classicGenerateSlugRequestSchema,
  classicGenerateSlugSchema,
  classicLiveDraftRequestSchema,
  classicLiveDraftSchema,
  classicProofQuerySchema,
  classicProofSchema,
  classicRevisionParamsSchema,
  classicRevisionRequestSchema,
  classicRevisionSchema,
  classicWhitelistFinalizeRequestSchema,
  classicWhitelistRequestSchema,
} from "@mkt/protocol";
import type { FastifyRequest } from "fastify";
import { AppError } from "../../errors.ts";
import { defineRoute, type RouteSpec } from "../../http/route.ts";
import { signedInAccount } from "../../identity/index.ts";
import {
  bearerOnlyAccess as bearerOnly,
  keyAndBearerAccess as keyAndBearer,
  keyRefused,
  LIVE_COMPATIBLE,
} from "../responses.ts";
import type { CreatorActor } from "./draft-rows.ts";
import { draftOfLiveBody, liveDraftAnswer } from "./live-drafts.ts";
import type { ClassicDraftService } from "./service.ts";

/** The signed-in account as plain values (the pipeline's bearer step has set it). */
const actorOf = (request: FastifyRequest): CreatorActor => {
  const account = signedInAccount(request);
  return { accountId: account.id, wallets: account.wallets };
};

const ownership =
  "Ownership: a draft is reachable only while its `creator` is a wallet linked to the signed-in account (403 `FORBIDDEN` otherwise, also when the wallet was unlinked since).";

const responses = {
  400: { description: "A malformed or incomplete value (`VALIDATION_ERROR`)." },
  401: { description: "Bearer token missing, expired or invalid (`UNAUTHORIZED`)." },
  403: { description: "The draft's or game's creator is not a wallet linked to the account (`FORBIDDEN`)." },
  404: { description: "No such draft (`DRAFT_NOT_FOUND`)." },
  429: keyRefused,
  500: { description: "The server could not complete the operation (`INTERNAL_ERROR`)." },
};

const draftShape = `A draft: \`draftId\` (24 lowercase hex, random), \`chainId\`, \`revision\`, \`status\` (\`draft\`, or \`confirmed\` once a deployment is attached: then read-only), \`creator\`, \`tokenName\`, \`tokenSymbol\`, \`nftName\`, \`nftSymbol\`, \`slug\` (the creator slug the game gets, or null), \`game\` (description, imageUrl, websiteUrl, featuredImageUrl, packImage, bgColor, links, isNSFW, disableFoil, disableWear), \`cards\` (name, description, imageUrl, unopenedImageUrl, firstEditionImageUrl, externalLink, rarity 1..5, startId/endId, traits, bgColor), \`oddsBps\` (Common..Mythic, summing to 10000), \`whitelist\` (\`whitelistEnabled\`, \`merkleRoot\`: the root the deployment must carry, \`entriesCount\`, \`finalizedAt\`) and \`deployment\` (null until confirmed: txHash, contractAddress, tokenAddress, gameId, merkleRoot, confirmedAt, version).`;

/** The creator URL rule (`CLASSIC_CREATOR_URL` in @mkt/protocol), as integrators read it. */
const creatorUrls = `Creator URLs (the game's \`imageUrl\`, \`websiteUrl\`, \`featuredImageUrl\`, \`packImage\` and \`links.twitter\`/\`website\`/\`discord\`; a card's \`imageUrl\`, \`unopenedImageUrl\`, \`firstEditionImageUrl\`, \`externalLink\`; an allowlist entry's \`profileImage\`) end up in the public token and contract JSON that marketplaces and wallets render, so they must be web URLs: \`https://\` then at least one character, none of them whitespace or an ASCII control character (the scheme in any letter case), or \`""\` (or null where allowed) for none; \`javascript:\`, \`data:\`, \`file:\` and every other scheme are refused with 400 \`VALIDATION_ERROR\`, and so are leading spaces and embedded tabs or newlines. Plain \`http://\` is accepted only while this server's classic chain is a dev chain it runs itself; on a real chain it is 400 too. Lengths: ${CLASSIC_CREATOR_URL_MAX} characters, ${CLASSIC_CREATOR_LINK_MAX} for \`links\`.`;

const storage = `The unconfirmed drafts of the signed-in account's wallets take at most ${CLASSIC_DRAFT_MAX_ACCOUNT_BYTES / 1024 / 1024} MiB (${CLASSIC_DRAFT_MAX_ACCOUNT_BYTES} bytes) together, content and allowlists, counted as stored (the UTF-8 text of the JSON kept, after defaults are filled; close to the size of the JSON sent): a create, autosave or allowlist replacement that would grow the total beyond it is 409 \`DRAFT_STORAGE_LIMIT\` and changes nothing (one that shrinks a draft is always accepted). Delete drafts or shrink them to make room; confirmed drafts do not count.`;

function bodyBytes(request: FastifyRequest): number {
  const declared = Number(request.headers["content-length"]);
  return Number.isFinite(declared) && declared > 0
    ? declared
    : Buffer.byteLength(JSON.stringify(request.body ?? null));
}

/** The 413 of a draft body over CLASSIC_DRAFT_MAX_BODY_BYTES. */
function checkBodySize(request: FastifyRequest) {
  if (bodyBytes(request) > CLASSIC_DRAFT_MAX_BODY_BYTES)
    throw new AppError(
      "payload_too_large",
      `a draft body is at most ${CLASSIC_DRAFT_MAX_BODY_BYTES / 1024} KiB`,
    );
}

const generateSlugDescription = `Serves the live Classic service's \`POST /vibe/boosterbox/generate-slug\`. Body \`{packName}\`: 1 to ${CLASSIC_PACK_NAME_MAX} characters (Unicode code points; the live rule: a pack name is at most ${CLASSIC_PACK_NAME_MAX} characters and becomes its slug), not blank; 400 otherwise. Answers \`{success, slug}\`: the creator-slug rule applied to the name (\`classicSlugOfPackName\` in \`@mkt/protocol\`: accents dropped, lowercase, every run of other characters than a-z and 0-9 one \`-\`, trimmed; a final \`-<digits>\` loses its \`-\`, since that form is the default slugs'; shorter than 3 characters or a reserved word gets \`-pack\`), made unique among the game slugs (creator and default slugs) and the slugs of drafts other than the signed-in account's own unconfirmed ones, at the time of the answer: the plain slug, else \`-v2\` to \`-v9\`, else \`-x\` and 8 random hex digits. Not a reservation: another creator may take it first, and confirm checks it again (409 \`SLUG_TAKEN\`). ${keyAndBearer}`;

const liveDraftDescription = `Serves the live Classic service's \`POST /vibe/boosterbox/metadata/draft\` (step 1 of the creator workflow in the live body; \`POST /classic/metadata/draft/poll\` is the same service with our body). Each request creates a new draft (live semantics): a repeated identical request creates another one (there is no idempotency key; the account's cap of ${CLASSIC_DRAFTS_PER_ACCOUNT} unconfirmed drafts bounds retries, and \`DELETE /classic/metadata/draft/{draftId}\` removes extras). Autosave the draft afterwards with \`/metadata/draft/poll\` (revision 2 and up).

Body \`{creator, owner, name, symbol, description, slug, featuredImageUrl, metadataItems[{name, description, imageUrl, rarity, tokenId}], bgColor, disableFoil, disableWear, isNSFW, twitterLink, websiteLink, packAmount}\`, translated onto a draft:
- \`creator\`: the deploying wallet, linked to the signed-in account (403); \`owner\`, when given, must be the creator (400);
- \`name\` -> \`nftName\` (1 to ${100 - CLASSIC_LIVE_TOKEN_NAME_SUFFIX.length} characters), \`symbol\` -> \`nftSymbol\` (1 to ${20 - CLASSIC_LIVE_TOKEN_SYMBOL_SUFFIX.length}); the ticket token (the ERC-20 that buys packs) is named \`<name>${CLASSIC_LIVE_TOKEN_NAME_SUFFIX}\`, symbol \`<symbol>${CLASSIC_LIVE_TOKEN_SYMBOL_SUFFIX}\`;
- \`metadataItems\` -> cards: card ids 1..N in \`tokenId\` order (integers, unique: 400 on a repeat), one id per card; \`rarity\` one of Common, Rare, Epic, Legendary, Mythic (codes 1..5; any other word 400); at most ${CLASSIC_DRAFT_MAX_CARDS}. Confirm needs every rarity at least once;
- \`featuredImageUrl\` -> the game's \`imageUrl\` and \`featuredImageUrl\`; \`twitterLink\` -> \`links.twitter\`, \`websiteLink\` -> \`links.website\` and \`websiteUrl\` (null or absent: none); \`description\`, \`bgColor\`, \`disableFoil\`, \`disableWear\`, \`isNSFW\` as they are;
- \`slug\`: a creator slug (from \`POST /classic/generate-slug\`), or absent/null for the default slug;
- \`oddsBps\` (an mkt extension, not in the live body): default ${CLASSIC_LIVE_DEFAULT_ODDS_BPS.join("/")}, the live service's published example (66.53%, 24%, 9%, 0.45%, 0.02%);
- \`packAmount\`: kept on the draft as stated (null when absent). It is the creation call's \`packAmount\`: \`createDropWithConfig\` and \`createDropWithExtensions\` are payable and buy that many packs for the caller in the same transaction (send at least their \`getMintPrice\`); confirm does not check it.
Unknown fields are 400. The same limits, URL rules and stored shapes as \`/metadata/draft/poll\` apply.

${creatorUrls}

Answer: \`{success, draftId, drafts, draftGame, createGame, draft}\`: \`draftId\` is our 24-hex draft id (not the live \`draft_<ms>_<rand>\` form); \`drafts\` the card drafts (\`cardId\`, \`tokenId\`, \`name\`, \`description\`, \`imageUrl\`, \`rarity\` word and \`rarityCode\`); \`draftGame\` \`{id, slug, name, symbol, creator, status, packAmount}\`; \`createGame\` (the field keeps its name from the retired \`createGame\` call) what to deploy from \`creator\` so that confirm accepts it (\`factory\`, \`chainId\`, \`nftName\`, \`nftSymbol\`, \`tokenName\`, \`tokenSymbol\`, \`merkleRoot\`: the zero root until an allowlist is set with \`/metadata/draft/whitelist\`, then read the draft again, \`oddsBps\`): call \`DropFactory.createDropWithExtensions(tokenName, tokenSymbol, nftName, nftSymbol, owner, packAmount, config, extensions)\` with \`extensions.merkleRoot\` and \`extensions.oddsBps\` from it (\`config\`: \`baseURI\`, \`tokensPerMint\` and the five offers in the drop's token are the creator's choice, unchecked). \`createDropWithConfig\` deploys the zero root and the factory's default odds (${DEFAULT_ODDS_BPS.join("/")}), so confirm accepts it only for a draft with exactly those; \`draft\` the whole draft as \`GET /classic/metadata/draft/{draftId}\` answers it.

${ownership} ${keyAndBearer}`;

/**
 * The creator workflow (docs/classic.md, Creator workflow): drafts, allowlists and proofs, confirm,
 * revisions; and the live-compatible routes.
 */
export function classicDraftRoutes({
  drafts,
  factory,
}: {
  drafts: ClassicDraftService;
  /** The drop factory confirm accepts deployments from (lowercase), null without a classic chain. */
  factory: string | null;
}): RouteSpec[] {
  return [
    // Live-compatible: the live service's slug helper and draft body, over the same drafts.
    defineRoute({
      method: "POST",
      path: "/generate-slug",
      operationId: "classicGenerateSlug",
      summary: "A free creator slug for a pack name (live-compatible)",
      description: generateSlugDescription,
      tags: ["Creator workflow", LIVE_COMPATIBLE],
      request: { body: classicGenerateSlugRequestSchema },
      responses: {
        200: { description: "The slug.", schema: classicGenerateSlugSchema },
        400: { description: "`packName` missing, blank, longer than 18 characters, or an unknown field." },
        401: responses[401],
        429: responses[429],
      },
      handler: async (request) => ({
        success: true,
        slug: await drafts.generateSlug(actorOf(request), request.body.packName),
      }),
    }),
    defineRoute({
      method: "POST",
      path: "/metadata/draft",
      operationId: "classicLiveDraft",
      summary: "Create a draft from the live service's body (live-compatible)",
      description: liveDraftDescription,
      tags: ["Creator workflow", LIVE_COMPATIBLE],
      request: { body: classicLiveDraftRequestSchema },
      responses: {
        200: { description: "The draft, its cards and what to deploy.", schema: classicLiveDraftSchema },
        400: responses[400],
        401: responses[401],
        403: { description: "`creator` is not a wallet linked to the account (`FORBIDDEN`)." },
        409: {
          description:
            "`DRAFT_LIMIT` (too many unconfirmed drafts) or `DRAFT_STORAGE_LIMIT` (the account's drafts would take more than 16 MiB).",
        },
        413: { description: `The body is larger than ${CLASSIC_DRAFT_MAX_BODY_BYTES / 1024} KiB.` },
        429: responses[429],
      },
      handler: async (request) => {
        checkBodySize(request);
        const { draft } = await drafts.poll(actorOf(request), draftOfLiveBody(request.body));
        return liveDraftAnswer(request.body, draft, factory);
      },
    }),
    defineRoute({
      method: "POST",
      path: "/metadata/draft/poll",
      operationId: "classicDraftPoll",
      summary: "Create or autosave a draft",
      description: `Step 1 of the creator workflow. Without \`draftId\` creates a draft (201 is not used: 200 with \`applied: true\`); with it, autosaves that draft.

Ordering: \`revision\` is a client-incremented counter (integer >= 1). A save applies only when its revision is greater than the stored one; otherwise nothing changes and the answer is 200 \`applied: false\` with the stored draft, whether the save was a repeat (same revision, same content) or stale (an older revision, or the same revision with other content): a stale autosave never overwrites a newer one, and \`applied\` is true only when this request changed the draft. The whole body replaces the draft's content (names, slug, game, cards, odds); the allowlist is set by \`POST /classic/metadata/draft/whitelist\`.

Rules: \`creator\` must be a wallet linked to the signed-in account (403), and may move to another linked wallet by a later save. Drafts may be incomplete (empty names, no cards): completeness is checked at confirm. Limits: the body at most ${CLASSIC_DRAFT_MAX_BODY_BYTES / 1024} KiB (413), at most ${CLASSIC_DRAFT_MAX_CARDS} cards, card names 1-200 characters, descriptions 5000, token and NFT names 100, symbols 20, 50 traits per card; \`oddsBps\` five integers summing to 10000 (default 6000/2500/1000/400/100); \`slug\` 3-80 of a-z, 0-9 and inner \`-\`, not ending in \`-<digits>\`, not \`draft\`. The signed-in account's wallets hold at most ${CLASSIC_DRAFTS_PER_ACCOUNT} unconfirmed drafts together (409 \`DRAFT_LIMIT\` for a new one). ${storage} A confirmed draft is read-only (409 \`DRAFT_CONFIRMED\`).

${creatorUrls}

${draftShape}

${ownership} ${keyAndBearer}`,
      tags: ["Creator workflow"],
      request: { body: classicDraftPollRequestSchema },
      responses: {
        200: { description: "The draft, and whether this save changed it.", schema: classicDraftPollSchema },
        ...responses,
        409: {
          description:
            "`DRAFT_CONFIRMED` (read-only), `DRAFT_LIMIT` (too many drafts) or `DRAFT_STORAGE_LIMIT` (the account's drafts would take more than 16 MiB).",
        },
        413: { description: `The body is larger than ${CLASSIC_DRAFT_MAX_BODY_BYTES / 1024} KiB.` },
      },
      handler: async (request) => {
        checkBodySize(request);
        return { success: true, ...(await drafts.poll(actorOf(request), request.body)) };
      },
    }),
    defineRoute({
      method: "GET",
      path: "/metadata/draft",
      operationId: "classicDraftList",
      summary: "The signed-in account's drafts",
      description: `The drafts whose creator is one of the account's linked wallets, confirmed ones included, most recently changed first, without their \`game\` and \`cards\` (\`cardsCount\` instead; read one draft for them). Paged: \`page\` from 1, \`limit\` 1 to ${CLASSIC_DRAFTS_MAX_LIMIT} (default 20). ${keyAndBearer}`,
      tags: ["Creator workflow"],
      request: { query: classicDraftListQuerySchema },
      responses: {
        200: { description: "One page of drafts.", schema: classicDraftListSchema },
        400: responses[400],
        401: responses[401],
        429: responses[429],
      },
      handler: async (request) => {
        const { page, limit } = request.query;
        const { drafts: items, total } = await drafts.list(actorOf(request), { page, limit });
        return {
          success: true,
          drafts: items,
          pagination: { page, limit, total, totalPages: Math.ceil(total / limit) },
        };
      },
    }),
    defineRoute({
      method: "GET",
      path: "/metadata/draft/:draftId",
      operationId: "classicDraftGet",
      summary: "One of the account's drafts",
      description: `${draftShape}\n\n${ownership} ${keyAndBearer}`,
      tags: ["Creator workflow"],
      request: { params: classicDraftParamsSchema },
      responses: {
        200: { description: "The draft.", schema: classicDraftResponseSchema },
        ...responses,
      },
      handler: async (request) => ({
        success: true,
        draft: await drafts.get(actorOf(request), request.params.draftId),
      }),
    }),
    defineRoute({
      method: "DELETE",
      path: "/metadata/draft/:draftId",
      operationId: "classicDraftDelete",
      summary: "Delete a draft",
      description: `Deletes an unconfirmed draft with its allowlist. A confirmed draft is the record of its game's deployment and allowlist (proofs are served from it): 409 \`DRAFT_CONFIRMED\`. ${ownership} ${keyAndBearer}`,
      tags: ["Creator workflow"],
      request: { params: classicDraftParamsSchema },
      responses: {
        200: { description: "Deleted.", schema: classicDraftDeletedSchema },
        ...responses,
        409: { description: "The draft is confirmed (`DRAFT_CONFIRMED`)." },
      },
      handler: async (request) => {
        await drafts.remove(actorOf(request), request.params.draftId);
        return { success: true, message: "draft deleted", draftId: request.params.draftId };
      },
    }),
    defineRoute({
      method: "POST",
      path: "/metadata/draft/whitelist",
      operationId: "classicDraftWhitelist",
      summary: "Replace a draft's allowlist",
      description: `Step 2 of the creator workflow, only when the launch is gated. Replaces every entry, sets \`whitelistEnabled\` and computes the Merkle root: an OpenZeppelin \`StandardMerkleTree\` over \`["address"]\` of the entries' addresses (the leaf \`BoosterDrop.mint\` verifies: \`keccak256(bytes.concat(keccak256(abi.encode(address))))\`, sorted-pair hashing). Entries: \`address\` required, \`userId\` (128), \`username\` (64), \`profileImage\` (a creator URL, below) optional. Duplicate addresses (any case) collapse to their first entry and the answer says \`alreadyExists: true\`; \`total\` counts the request's entries, \`entriesCount\` the stored ones.

\`merkleRoot\` in the answer is the root the deployment must carry: the entries' root when enabled, the zero root (\`0x00…00\`) when disabled (entries are kept for later). An enabled allowlist needs at least one entry (400). At most ${CLASSIC_ALLOWLIST_MAX_ENTRIES.toLocaleString("en-US")} entries (400 above), the body at most 1 MiB (the server's limit, 413). A confirmed draft's allowlist is the one its drop verifies and cannot change (409 \`DRAFT_CONFIRMED\`; this API never calls \`setMerkleRoot\`). A change clears \`finalizedAt\`. ${storage}

${creatorUrls}

${ownership} ${keyAndBearer}`,
      tags: ["Creator workflow"],
      request: { body: classicWhitelistRequestSchema },
      responses: {
        200: {
          description: "The allowlist result: the root to deploy with and the entry counts.",
          schema: classicAllowlistResultSchema,
        },
        ...responses,
        409: {
          description:
            "The draft is confirmed (`DRAFT_CONFIRMED`), or the account's drafts would take more than 16 MiB (`DRAFT_STORAGE_LIMIT`).",
        },
      },
      handler: (request) => drafts.setWhitelist(actorOf(request), request.body),
    }),
    defineRoute({
      method: "POST",
      path: "/metadata/draft/whitelist/finalize",
      operationId: "classicDraftWhitelistFinalize",
      summary: "Rebuild and persist a draft's allowlist tree",
      description: `Rebuilds the Merkle tree from the stored entries, persists its root and records \`finalizedAt\`; idempotent. Proofs are recomputed from the persisted entries and root (a replica keeps recently built trees), so finalize is a consistency step, not a precondition of the proof route or of confirm. On a confirmed draft it succeeds only when the rebuilt root is the deployed one. Answers the allowlist result (\`total\` = \`entriesCount\`, \`alreadyExists\` false). ${ownership} ${keyAndBearer}`,
      tags: ["Creator workflow"],
      request: { body: classicWhitelistFinalizeRequestSchema },
      responses: {
        200: {
          description: "The allowlist result: the root to deploy with and the entry counts.",
          schema: classicAllowlistResultSchema,
        },
        ...responses,
      },
      handler: (request) => drafts.finalize(actorOf(request), request.body.draftId),
    }),
    defineRoute({
      method: "GET",
      path: "/metadata/draft/:draftId/whitelist/proof",
      operationId: "classicDraftWhitelistProof",
      summary: "The allowlist proof of one address",
      description: `The \`proof\` argument \`BoosterDrop.mint(amount, proof)\` needs from \`address\`, under the draft's current root (after confirm, the deployed one). A listed address: \`allowlisted: true\` and its proof. An address not on the list: 200 \`allowlisted: false\`, \`proof: []\` (the drop will refuse its mint). A disabled allowlist: \`whitelistEnabled: false\`, the zero root, \`allowlisted: false\`, \`proof: []\` (the drop takes any minter; pass an empty proof). API-KEY only, no bearer: minters are not the creator. 404 \`DRAFT_NOT_FOUND\` for an unknown draft.`,
      tags: ["Creator workflow"],
      request: { params: classicDraftParamsSchema, query: classicProofQuerySchema },
      responses: {
        200: { description: "The proof.", schema: classicProofSchema },
        400: responses[400],
        404: responses[404],
        429: responses[429],
      },
      handler: (request) => drafts.proof(request.params.draftId, request.query.address),
    }),
    defineRoute({
      method: "POST",
      path: "/metadata/confirm",
      operationId: "classicConfirm",
      summary: "Attach a deployment transaction to a draft",
      description: `Step 4 of the creator workflow, after deploying with \`DropFactory.createDropWithExtensions\` (step 3, onchain, outside this API) from a wallet linked to the account, with the draft's names, odds and \`whitelist.merkleRoot\` as \`extensions.merkleRoot\` (\`createDropWithConfig\` when the draft has no allowlist and the factory's default odds). The server reads the receipt from the classic chain's RPC and checks, in order:
- no receipt yet (pending or unknown): 200 \`receiptFound: false\`, nothing stored; confirm again later;
- the transaction reverted: 409 \`TRANSACTION_REVERTED\`;
- it emitted exactly one \`DropCreated\` from this server's drop factory (logs of other contracts do not count), completed by the factory's \`DropConfigured\` of the same drop (game id, allowlist root, odds; without one: game id 0, the zero root, the default odds): else 409 \`NOT_A_GAME_DEPLOYMENT\`;
- the game's creator (\`DropCreated\`'s \`creator\`, the deploying wallet) is linked to the signed-in account: else 403 \`FORBIDDEN\`;
- the deployed \`merkleRoot\` is the draft's (the zero root when its allowlist is disabled): else 409 \`MERKLE_ROOT_MISMATCH\`;
- \`nftName\`, \`nftSymbol\`, \`tokenName\`, \`tokenSymbol\` and \`oddsBps\` are the draft's: else 409 \`DEPLOYMENT_MISMATCH\` (autosave the draft to match, then confirm again);
- the draft's cards are complete (1 to ${CLASSIC_DRAFT_MAX_CARDS}, card ids 1..N without gaps, every rarity present): else 400; its slug is free: else 409 \`SLUG_TAKEN\`.
Then the draft is confirmed (read-only; its allowlist is frozen) and its game, cards and slug are published as the game's first metadata revision. If the indexer has not seen the game yet, the confirmation is kept and the metadata is published as soon as it has: \`published: false\`, and \`GET /classic/contractAddress/{address}/ready\` stays \`ready: false\` until then (polling it publishes). Idempotent: the same draft and transaction answer the same result again; another transaction for a confirmed draft, or a deployment already attached to another draft, is 409 \`DRAFT_CONFIRMED\`. 503 when the chain cannot be read.

Live-compatible: serves the live Classic service's \`POST /vibe/boosterbox/metadata/confirm\` \`{draftId, txHash}\` (\`draftId\` the 24-hex id of ours). Live clients send \`API-KEY\` beside the bearer: the key is accepted and not needed (this route is bearer only, it neither checks nor charges the key). The answer carries the live \`{success, message}\` and our fields; a live client that reads only the HTTP status should treat 200 with \`receiptFound: false\` as "not yet" and confirm again.

${ownership} ${bearerOnly}`,
      tags: ["Creator workflow", LIVE_COMPATIBLE],
      request: { body: classicConfirmRequestSchema },
      responses: {
        200: { description: "The confirmation, or `receiptFound: false`.", schema: classicConfirmSchema },
        ...responses,
        409: {
          description:
            "`TRANSACTION_REVERTED`, `NOT_A_GAME_DEPLOYMENT`, `MERKLE_ROOT_MISMATCH`, `DEPLOYMENT_MISMATCH`, `SLUG_TAKEN` or `DRAFT_CONFIRMED`.",
        },
        429: { description: "Too many requests from this client (the classic 429)." },
        503: { description: "The classic chain's RPC or the database is unavailable." },
      },
      handler: (request) => drafts.confirm(actorOf(request), request.body),
    }),
    defineRoute({
      method: "PUT",
      path: "/metadata/:addressOrSlug",
      operationId: "classicReviseMetadata",
      summary: "Publish a metadata revision of a game",
      description: `Step 6 of the creator workflow: a new revision of a deployed game's offchain metadata, \`{game, cards, effectiveFrom?, effectiveUntil?, version?}\` (the shapes and limits of a draft's \`game\` and \`cards\`; 1 to ${CLASSIC_DRAFT_MAX_CARDS} cards with ids 1..N without gaps and every rarity present). It gets version latest + 1; \`version\`, when given, must be that number (optimistic concurrency: 409 \`VERSION_CONFLICT\` when someone published meanwhile). \`effectiveFrom\` (default now) must be after the latest revision's start. Without \`effectiveUntil\` the revision replaces the earlier ones from \`effectiveFrom\` on (they end there); with it, it is in effect only in \`[effectiveFrom, effectiveUntil)\` and the revision in effect before comes back after. Reads take \`at\` (\`/metadata/{addressOrSlug}/cards\`, \`/odds\`) to see the revision in effect then. The game must be indexed (404 \`GAME_NOT_FOUND\`) and its creator a wallet linked to the signed-in account (403 \`FORBIDDEN\`).

${creatorUrls}

${bearerOnly}`,
      tags: ["Creator workflow"],
      request: { params: classicRevisionParamsSchema, body: classicRevisionRequestSchema },
      responses: {
        200: { description: "The published revision.", schema: classicRevisionSchema },
        400: responses[400],
        401: responses[401],
        403: responses[403],
        404: { description: "No such game (`GAME_NOT_FOUND`)." },
        409: { description: "`VERSION_CONFLICT`." },
        429: { description: "Too many requests from this client (the classic 429)." },
      },
      handler: (request) => drafts.revise(actorOf(request), request.params.addressOrSlug, request.body),
    }),
  ];
}
