import {
  parseReleaseAction,
  type Release,
  type ReleaseActionInput,
  type ReleaseDraftInput,
  type ReleaseList,
  releaseActionMessage,
  releaseListSchema,
  releaseSchema,
} from "@mkt/protocol";
import type { Transport } from "./http.ts";
import { type MktSigner, type SigningOptions, signFields } from "./signer.ts";

const RELEASES = "/market/releases";

export interface ReleasesApi {
  /**
   * One page of the public catalog (`GET /market/releases`), last changed
   * first; summaries have `cardsOmitted: true`. The next page starts at
   * `offset + releases.length` while `more` is true.
   *
   * @example
   * ```ts
   * const page = await client.market.releases.list({ offset: 50 });
   * console.log(page.releases.map((release) => release.name), page.more);
   * ```
   */
  list(query?: { offset?: number }): Promise<ReleaseList>;
  /**
   * Every public release across pages. A release that changes while paging
   * moves to the front of the list, so each id is yielded once, at its
   * first sighting; a release changed mid-walk may be missed and shows up
   * on the next walk.
   *
   * @example
   * ```ts
   * for await (const release of client.market.releases.iterate()) {
   *   console.log(release.id, release.status, release.revision);
   * }
   * ```
   */
  iterate(): AsyncGenerator<Release, void, undefined>;
  /**
   * One complete public release with its cards (`GET /market/releases/{id}`):
   * the draft an edit replaces. Drafts are a 404 here (their owner sees them
   * in the answers of the signed actions).
   *
   * @example
   * ```ts
   * const release = await client.market.releases.get("rel_abc");
   * console.log(release.design.cardsByRarity.flat().length);
   * ```
   */
  get(releaseId: string): Promise<Release>;
  /**
   * Creates a draft signed by `signer`, whose account becomes the owner
   * (`POST /market/releases`, 201). Every signed action has a fresh nonce
   * and expires two minutes ahead by default.
   *
   * @example
   * ```ts
   * import { privateKeyToAccount } from "viem/accounts";
   *
   * const account = privateKeyToAccount(privateKey);
   * const draft = await client.market.releases.create(account, { name: "Night Owls", symbol: "OWL" });
   * console.log(draft.id, draft.status, draft.revision); // rel_…, "draft", 1
   * ```
   */
  create(signer: MktSigner, draft: ReleaseDraftInput, options?: SigningOptions): Promise<Release>;
  /**
   * Replaces the draft fields of a release. `revision` is the one the edit is
   * based on: a stale one is an `MktApiError` with status 409 (read the
   * release again and redo the edit).
   *
   * @example
   * ```ts
   * const { revision, name, symbol, image, color, baseURI, links, design } =
   *   await client.market.releases.get(releaseId);
   * const edited = await client.market.releases.edit(account, releaseId, revision, {
   *   name, symbol, image, color, baseURI, links, design,
   *   description: "Now with barn owls",
   * });
   * ```
   */
  edit(
    signer: MktSigner,
    releaseId: string,
    revision: number,
    draft: ReleaseDraftInput,
    options?: SigningOptions,
  ): Promise<Release>;
  /**
   * Announces a release for `launchAt` (Unix milliseconds, in the future).
   *
   * @example
   * ```ts
   * const release = await client.market.releases.announce(account, id, 1, Date.now() + 86_400_000);
   * console.log(release.status, release.launchAt);
   * ```
   */
  announce(
    signer: MktSigner,
    releaseId: string,
    revision: number,
    launchAt: number,
    options?: SigningOptions,
  ): Promise<Release>;
  /**
   * Moves the `launchAt` of an announced release.
   *
   * @example
   * ```ts
   * await client.market.releases.reschedule(account, release.id, release.revision, Date.now() + 2 * 86_400_000);
   * ```
   */
  reschedule(
    signer: MktSigner,
    releaseId: string,
    revision: number,
    launchAt: number,
    options?: SigningOptions,
  ): Promise<Release>;
  /**
   * Cancels an announced release; it stays listed so followers see it.
   *
   * @example
   * ```ts
   * const cancelled = await client.market.releases.cancel(account, release.id, release.revision);
   * ```
   */
  cancel(signer: MktSigner, releaseId: string, revision: number, options?: SigningOptions): Promise<Release>;
  /**
   * Links a release to a drop the indexer has seen onchain in runtime
   * `version` (an id from `GET /market/runtime`); `dropId` is a decimal string.
   *
   * @example
   * ```ts
   * const live = await client.market.releases.link(account, release.id, release.revision, "r2", "7");
   * console.log(live.status, live.dropId);
   * ```
   */
  link(
    signer: MktSigner,
    releaseId: string,
    revision: number,
    version: string,
    dropId: string,
    options?: SigningOptions,
  ): Promise<Release>;
  /**
   * Deletes a draft (204).
   *
   * @example
   * ```ts
   * await client.market.releases.delete(account, draft.id, draft.revision);
   * ```
   */
  delete(signer: MktSigner, releaseId: string, revision: number, options?: SigningOptions): Promise<void>;
}

export function releasesApi(request: Transport): ReleasesApi {
  async function list(query: { offset?: number } = {}): Promise<ReleaseList> {
    const { body } = await request<unknown>({ method: "GET", path: RELEASES, query });
    return releaseListSchema.parse(body);
  }

  /**
   * Signs one action with the shared builders and posts it. The action is
   * parsed first: the body carries exactly the JSON the message states.
   */
  async function apply(
    signer: MktSigner,
    input: ReleaseActionInput,
    options?: SigningOptions,
  ): Promise<Release | undefined> {
    const action = parseReleaseAction(input);
    const { signature, ...fields } = await signFields(
      signer,
      (fields) => releaseActionMessage({ ...fields, action }),
      options,
    );
    const { status, body } = await request<unknown>({
      method: "POST",
      path: RELEASES,
      body: { ...fields, action, signature },
    });
    return status === 204 ? undefined : releaseSchema.parse(body);
  }

  const applied = async (answer: Promise<Release | undefined>): Promise<Release> => {
    const release = await answer;
    if (!release) throw new Error("the server answered no release");
    return release;
  };

  return {
    list,

    async *iterate(): AsyncGenerator<Release, void, undefined> {
      const seen = new Set<string>();
      for (let offset = 0; ; ) {
        const page = await list({ offset });
        for (const release of page.releases) {
          if (seen.has(release.id)) continue;
          seen.add(release.id);
          yield release;
        }
        if (!page.more || page.releases.length === 0) return;
        offset += page.releases.length;
      }
    },

    async get(releaseId: string): Promise<Release> {
      const { body } = await request<unknown>({
        method: "GET",
        path: `${RELEASES}/${encodeURIComponent(releaseId)}`,
      });
      return releaseSchema.parse(body);
    },

    create: (signer: MktSigner, draft: ReleaseDraftInput, options?: SigningOptions) =>
      applied(apply(signer, { kind: "create", draft }, options)),

    edit: (
      signer: MktSigner,
      releaseId: string,
      revision: number,
      draft: ReleaseDraftInput,
      options?: SigningOptions,
    ) => applied(apply(signer, { kind: "edit", releaseId, revision, draft }, options)),

    announce: (
      signer: MktSigner,
      releaseId: string,
      revision: number,
      launchAt: number,
      options?: SigningOptions,
    ) => applied(apply(signer, { kind: "announce", releaseId, revision, launchAt }, options)),

    reschedule: (
      signer: MktSigner,
      releaseId: string,
      revision: number,
      launchAt: number,
      options?: SigningOptions,
    ) => applied(apply(signer, { kind: "reschedule", releaseId, revision, launchAt }, options)),

    cancel: (signer: MktSigner, releaseId: string, revision: number, options?: SigningOptions) =>
      applied(apply(signer, { kind: "cancel", releaseId, revision }, options)),

    link: (
      signer: MktSigner,
      releaseId: string,
      revision: number,
      version: string,
      dropId: string,
      options?: SigningOptions,
    ) => applied(apply(signer, { kind: "link", releaseId, revision, version, dropId }, options)),

    async delete(
      signer: MktSigner,
      releaseId: string,
      revision: number,
      options?: SigningOptions,
    ): Promise<void> {
      await apply(signer, { kind: "delete", releaseId, revision }, options);
    },
  };
}
