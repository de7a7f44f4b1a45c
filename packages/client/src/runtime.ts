import {
  type ClaimList,
  type ClaimsQuery,
  claimListSchema,
  type MarketClaim,
  type MarketRuntime,
  type MarketRuntimeCatalog,
  marketRuntimeCatalogSchema,
  marketRuntimeListSchema,
} from "@mkt/protocol";
import type { Transport } from "./http.ts";

const RUNTIME = "/market/runtime";
const versionPath = (version: string) => `${RUNTIME}/${encodeURIComponent(version)}`;

/** `owner` (required) and the optional drop filter, page size and cursor of a claims read. */
export type ClaimsOptions = ClaimsQuery;

export interface RuntimeApi {
  /**
   * The runtimes of the current marketplace (`GET /market/runtime`), newest
   * version first, as the chain's RuntimeRegistry lists them. Take
   * `{version}` from here (the entry with `current: true` is the newest),
   * never from a name.
   *
   * @example
   * ```ts
   * const runtimes = await client.market.runtime.list();
   * const current = runtimes.find((runtime) => runtime.current);
   * ```
   */
  list(): Promise<MarketRuntime[]>;
  /**
   * One runtime's catalog (`GET /market/runtime/{version}`): its contracts,
   * a page of its drops and the indexer head they were read at. Pass the
   * answer's `next` as `cursor` for the following drops.
   *
   * @example
   * ```ts
   * const catalog = await client.market.runtime.get("r2");
   * console.log(catalog.drops.map((drop) => drop.id), catalog.head.nextBlock);
   * ```
   */
  get(version: string, page?: { limit?: number; cursor?: string }): Promise<MarketRuntimeCatalog>;
  /**
   * One page of an owner's claims in a runtime
   * (`GET /market/runtime/{version}/claims`), oldest first, with the head it
   * was read at. `next` is absent on the last page.
   *
   * @example
   * ```ts
   * const page = await client.market.runtime.claims("r2", { owner: "0xabc…", limit: 100 });
   * console.log(page.items.length, page.next, page.head.nextBlock);
   * ```
   */
  claims(version: string, query: ClaimsOptions): Promise<ClaimList>;
  /**
   * Every claim of an owner in a runtime, page after page, following `next`
   * until the server leaves it out: a short page is not taken for the end.
   * Each claim is yielded once, claims indexed during the walk included.
   *
   * @example
   * ```ts
   * for await (const claim of client.market.runtime.iterateClaims("r2", { owner })) {
   *   console.log(claim.dropId, claim.quantity, claim.transactionHash);
   * }
   * ```
   */
  iterateClaims(
    version: string,
    query: Omit<ClaimsOptions, "cursor">,
  ): AsyncGenerator<MarketClaim, void, undefined>;
}

export function runtimeApi(request: Transport): RuntimeApi {
  async function claims(version: string, query: ClaimsOptions): Promise<ClaimList> {
    const { body } = await request<unknown>({
      method: "GET",
      path: `${versionPath(version)}/claims`,
      query: { owner: query.owner, dropId: query.dropId, limit: query.limit, cursor: query.cursor },
    });
    return claimListSchema.parse(body);
  }

  return {
    async list(): Promise<MarketRuntime[]> {
      const { body } = await request<unknown>({ method: "GET", path: RUNTIME });
      return marketRuntimeListSchema.parse(body).runtimes;
    },

    async get(
      version: string,
      page: { limit?: number; cursor?: string } = {},
    ): Promise<MarketRuntimeCatalog> {
      const { body } = await request<unknown>({ method: "GET", path: versionPath(version), query: page });
      return marketRuntimeCatalogSchema.parse(body);
    },

    claims,

    async *iterateClaims(
      version: string,
      query: Omit<ClaimsOptions, "cursor">,
    ): AsyncGenerator<MarketClaim, void, undefined> {
      let cursor: string | undefined;
      do {
        const page = await claims(version, { ...query, cursor });
        yield* page.items;
        cursor = page.next;
      } while (cursor !== undefined);
    },
  };
}
