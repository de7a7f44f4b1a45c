import {
  type ClassicAllowlistEntry,
  type ClassicAllowlistProof,
  type ClassicAllowlistResult,
  type ClassicConfirm,
  type ClassicDraft,
  type ClassicDraftList,
  type ClassicDraftPoll,
  type ClassicDraftPollRequest,
  type ClassicLiveDraft,
  type ClassicLiveDraftRequest,
  type ClassicReady,
  type ClassicRevision,
  type ClassicRevisionRequest,
  classicAllowlistResultSchema,
  classicConfirmSchema,
  classicDraftListSchema,
  classicDraftPollSchema,
  classicDraftResponseSchema,
  classicGenerateSlugSchema,
  classicLiveDraftSchema,
  classicProofSchema,
  classicReadySchema,
  classicRevisionSchema,
} from "@mkt/protocol";
import { bearerHeaders, type ClassicCredential } from "./classic-auth.ts";
import type { RequestOptions, Transport } from "./http.ts";

export interface WaitUntilReadyOptions {
  /** Polls at most this many times (default 30). */
  attempts?: number;
  /** First wait between polls, doubled each time up to `maxDelayMs` (default 500 ms). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  chainId?: number;
  /** Injected for tests; defaults to setTimeout. */
  sleep?: (ms: number) => Promise<void>;
}

const segment = (value: string) => encodeURIComponent(value);

export interface ClassicCreatorApi {
  /**
   * Creates (no `draftId`) or autosaves a draft (`POST /classic/metadata/draft/poll`).
   * Increment `revision` with every save: a save whose revision is not greater
   * than the stored one changes nothing (`applied: false`).
   *
   * @example
   * ```ts
   * const { draft } = await client.classic.creator.poll({ revision: 1, creator: wallet, nftName: "Tin Robots" });
   * await client.classic.creator.poll({ draftId: draft.draftId, revision: 2, creator: wallet, nftName: "Tin Robots", cards });
   * ```
   */
  poll(draft: ClassicDraftPollRequest): Promise<ClassicDraftPoll>;
  /**
   * A creator slug for a pack name (1 to 18 characters), free at the time of
   * the answer (`POST /classic/generate-slug`). Not a reservation: confirm
   * checks it again (409 `SLUG_TAKEN`). `classicSlugOfPackName` in
   * `@mkt/protocol` shows the slug before uniqueness, offline.
   *
   * @example
   * ```ts
   * const slug = await client.classic.creator.generateSlug("Tin Robots"); // "tin-robots"
   * ```
   */
  generateSlug(packName: string): Promise<string>;
  /**
   * Creates a draft from the live service's body (`POST /classic/metadata/draft`):
   * `name`/`symbol` name the NFT, `metadataItems` become cards in `tokenId`
   * order, rarity words become codes. Each call creates a new draft. The
   * answer's `createGame` is what to pass to `DropFactory.createDropWithExtensions`
   * (from `creator`: the names and symbols, `merkleRoot` and `oddsBps` as its
   * extensions) for confirm to accept the deployment.
   *
   * @example
   * ```ts
   * const { draftId, createGame } = await client.classic.creator.createLiveDraft({
   *   creator: wallet, name: "Tin Robots", symbol: "TIN", slug,
   *   metadataItems: [{ name: "Bolt", rarity: "Common", tokenId: 1, imageUrl: "https://img.example/1.png" }],
   * });
   * ```
   */
  createLiveDraft(draft: ClassicLiveDraftRequest): Promise<ClassicLiveDraft>;
  /** One page of the signed-in account's drafts (`GET /classic/metadata/draft`). */
  list(query?: { page?: number; limit?: number }): Promise<ClassicDraftList>;
  /** One draft (`GET /classic/metadata/draft/{draftId}`). */
  get(draftId: string): Promise<ClassicDraft>;
  /** Deletes an unconfirmed draft (`DELETE /classic/metadata/draft/{draftId}`). */
  remove(draftId: string): Promise<void>;
  /**
   * Replaces a draft's allowlist (`POST /classic/metadata/draft/whitelist`);
   * `merkleRoot` in the answer is the root to deploy with.
   *
   * @example
   * ```ts
   * const { merkleRoot } = await client.classic.creator.setWhitelist(draftId, true, [{ address: friend }]);
   * ```
   */
  setWhitelist(
    draftId: string,
    whitelistEnabled: boolean,
    entries: ClassicAllowlistEntry[],
  ): Promise<ClassicAllowlistResult>;
  /** Rebuilds and persists the allowlist tree (`POST /classic/metadata/draft/whitelist/finalize`). */
  finalizeWhitelist(draftId: string): Promise<ClassicAllowlistResult>;
  /**
   * The proof `BoosterDrop.mint(amount, proof)` needs from `address` (API key only).
   *
   * @example
   * ```ts
   * const { proof, allowlisted } = await client.classic.creator.proof(draftId, minter);
   * ```
   */
  proof(draftId: string, address: string): Promise<ClassicAllowlistProof>;
  /**
   * Attaches the deployment transaction (`POST /classic/metadata/confirm`, bearer only);
   * `receiptFound: false` means "not mined yet: call again".
   *
   * @example
   * ```ts
   * const confirmed = await client.classic.creator.confirm(draftId, txHash);
   * if (confirmed.receiptFound) await client.classic.creator.waitUntilReady(confirmed.contractAddress!);
   * ```
   */
  confirm(draftId: string, txHash: string): Promise<ClassicConfirm>;
  /**
   * Polls `GET /classic/contractAddress/{addressOrSlug}/ready` with
   * exponential backoff until `ready`, at most `attempts` times; answers
   * the last state (check `ready`).
   *
   * @example
   * ```ts
   * const { ready } = await client.classic.creator.waitUntilReady(drop, { attempts: 20 });
   * ```
   */
  waitUntilReady(addressOrSlug: string, options?: WaitUntilReadyOptions): Promise<ClassicReady>;
  /**
   * Publishes a metadata revision of a game (`PUT /classic/metadata/{contractAddress}`, bearer only).
   * `version`, when given, is the version expected (409 `VERSION_CONFLICT` when someone published meanwhile).
   *
   * @example
   * ```ts
   * await client.classic.creator.revise(drop, { game, cards, effectiveFrom: "2026-01-01T00:00:00Z", version: 2 });
   * ```
   */
  revise(contractAddress: string, revision: ClassicRevisionRequest): Promise<ClassicRevision>;
}

/**
 * The Classic creator workflow (`/classic/metadata/…`): drafts,
 * allowlists and proofs, confirm, readiness and revisions. Every call but
 * `proof` needs a signed-in client (`client.classic.auth.signIn`).
 */
export function classicCreatorApi(request: Transport, credential: ClassicCredential): ClassicCreatorApi {
  const call = async <T>(
    options: Omit<RequestOptions, "headers"> & { bearer?: boolean },
    schema: { parse(input: unknown): T },
  ): Promise<T> => {
    const { bearer = true, ...rest } = options;
    const { body } = await request<unknown>({
      ...rest,
      ...(bearer ? { headers: bearerHeaders(credential) } : {}),
    });
    return schema.parse(body);
  };

  return {
    poll: (draft: ClassicDraftPollRequest): Promise<ClassicDraftPoll> =>
      call(
        { method: "POST", path: "/classic/metadata/draft/poll", body: draft, idempotent: true },
        classicDraftPollSchema,
      ),

    generateSlug: async (packName: string): Promise<string> =>
      (
        await call(
          { method: "POST", path: "/classic/generate-slug", body: { packName } },
          classicGenerateSlugSchema,
        )
      ).slug,

    createLiveDraft: (draft: ClassicLiveDraftRequest): Promise<ClassicLiveDraft> =>
      call({ method: "POST", path: "/classic/metadata/draft", body: draft }, classicLiveDraftSchema),

    list: (query: { page?: number; limit?: number } = {}): Promise<ClassicDraftList> =>
      call({ method: "GET", path: "/classic/metadata/draft", query }, classicDraftListSchema),

    get: async (draftId: string): Promise<ClassicDraft> =>
      (
        await call(
          { method: "GET", path: `/classic/metadata/draft/${segment(draftId)}` },
          classicDraftResponseSchema,
        )
      ).draft,

    remove: async (draftId: string): Promise<void> => {
      await request({
        method: "DELETE",
        path: `/classic/metadata/draft/${segment(draftId)}`,
        headers: bearerHeaders(credential),
      });
    },

    setWhitelist: (
      draftId: string,
      whitelistEnabled: boolean,
      entries: ClassicAllowlistEntry[],
    ): Promise<ClassicAllowlistResult> =>
      call(
        {
          method: "POST",
          path: "/classic/metadata/draft/whitelist",
          body: { draftId, whitelistEnabled, entries },
        },
        classicAllowlistResultSchema,
      ),

    finalizeWhitelist: (draftId: string): Promise<ClassicAllowlistResult> =>
      call(
        { method: "POST", path: "/classic/metadata/draft/whitelist/finalize", body: { draftId } },
        classicAllowlistResultSchema,
      ),

    proof: (draftId: string, address: string): Promise<ClassicAllowlistProof> =>
      call(
        {
          method: "GET",
          path: `/classic/metadata/draft/${segment(draftId)}/whitelist/proof`,
          query: { address },
          bearer: false,
        },
        classicProofSchema,
      ),

    confirm: (draftId: string, txHash: string): Promise<ClassicConfirm> =>
      call(
        {
          method: "POST",
          path: "/classic/metadata/confirm",
          body: { draftId, txHash },
          authenticated: false,
        },
        classicConfirmSchema,
      ),

    async waitUntilReady(addressOrSlug: string, options: WaitUntilReadyOptions = {}): Promise<ClassicReady> {
      const { attempts = 30, baseDelayMs = 500, maxDelayMs = 8_000, chainId } = options;
      const sleep =
        options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
      let state: ClassicReady | undefined;
      for (let attempt = 0; attempt < attempts; attempt++) {
        if (attempt > 0) await sleep(Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1)));
        state = await call(
          {
            method: "GET",
            path: `/classic/contractAddress/${segment(addressOrSlug)}/ready`,
            ...(chainId !== undefined ? { query: { chainId } } : {}),
            bearer: false,
          },
          classicReadySchema,
        );
        if (state.ready) return state;
      }
      return state as ClassicReady;
    },

    revise: (contractAddress: string, revision: ClassicRevisionRequest): Promise<ClassicRevision> =>
      call(
        {
          method: "PUT",
          path: `/classic/metadata/${segment(contractAddress)}`,
          body: revision,
          authenticated: false,
        },
        classicRevisionSchema,
      ),
  };
}
