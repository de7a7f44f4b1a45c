import {
  type ArtworkHistory,
  type ArtworkHistoryQuery,
  type ArtworkRevision,
  artworkHistorySchema,
  type BoardCollectorList,
  type BoardCreatorList,
  boardCollectorListSchema,
  boardCreatorListSchema,
  type CollectorBoardQuery,
  type Creator,
  type CreatorBoardQuery,
  type CreatorDrop,
  type CreatorDropList,
  type CreatorReleaseList,
  creatorDropListSchema,
  creatorReleaseListSchema,
  creatorSchema,
  type Discovery,
  discoverySchema,
  type FollowList,
  followListSchema,
  type PageQuery,
  type Release,
  type ReleaseArtwork,
  type RoomDetail,
  type RoomList,
  type RoomMessageList,
  releaseArtworkSchema,
  roomDetailSchema,
  roomListSchema,
  roomMessageListSchema,
} from "@mkt/protocol";
import type { Transport } from "./http.ts";

const path = (template: string, ...parts: string[]) =>
  parts.reduce((out, part) => out.replace("{}", encodeURIComponent(part)), template);

/**
 * Follows `next` from the first page until the server answers null: the end
 * of a list is never inferred from a short page.
 */
async function* everyItem<Page extends { next: string | null }, Item>(
  read: (cursor: string | undefined) => Promise<Page>,
  items: (page: Page) => Item[],
): AsyncGenerator<Item> {
  let cursor: string | undefined;
  do {
    const page = await read(cursor);
    yield* items(page);
    cursor = page.next ?? undefined;
  } while (cursor !== undefined);
}

export interface MarketReadsApi {
  /**
   * What a client reads first (`GET /market/discovery`): runtimes, surfaces
   * and their documents, budgets, the stream path and the PUBLIC_READS mode.
   *
   * @example
   * ```ts
   * const { runtimes, stream } = await client.market.discovery();
   * console.log(runtimes[0]?.id, stream.path);
   * ```
   */
  discovery(): Promise<Discovery>;
  /** The leaderboards (`/market/board`). */
  board: {
    /**
     * One page of the creators' leaderboard (`GET /market/board/creators`);
     * `next` is the offset of the following page.
     *
     * @example
     * ```ts
     * const board = await client.market.board.creators({ window: "24h", sort: "volume" });
     * for (const entry of board.entries) console.log(entry.rank, entry.address, BigInt(entry.volume));
     * ```
     */
    creators(query?: CreatorBoardQuery): Promise<BoardCreatorList>;
    /**
     * One page of the collectors' leaderboard (`GET /market/board/collectors`).
     *
     * @example
     * ```ts
     * const top = await client.market.board.collectors({ window: "7d", limit: 10 });
     * ```
     */
    collectors(query?: CollectorBoardQuery): Promise<BoardCollectorList>;
  };
  /** Creators' profiles, releases and drops (`/market/creators`). */
  creators: {
    /**
     * A creator's public profile (`GET /market/creators/{address}`).
     *
     * @example
     * ```ts
     * const creator = await client.market.creators.get("0x70997970c51812dc3a010c7d01b50e0d17dc79c8");
     * console.log(creator.profile?.username, creator.drops);
     * ```
     */
    get(address: string): Promise<Creator>;
    /** One page of the creator's public releases (summaries); drafts never appear. */
    releases(address: string, query?: PageQuery): Promise<CreatorReleaseList>;
    /** One page of the drops the creator's wallet created onchain, newest first. */
    drops(address: string, query?: PageQuery): Promise<CreatorDropList>;
    /**
     * Every public release of the creator, following `next` to the end.
     *
     * @example
     * ```ts
     * for await (const release of client.market.creators.iterateReleases(address)) console.log(release.name);
     * ```
     */
    iterateReleases(address: string, options?: { limit?: number }): AsyncGenerator<Release>;
    /** Every drop of the creator's wallet, following `next` to the end. */
    iterateDrops(address: string, options?: { limit?: number }): AsyncGenerator<CreatorDrop>;
  };
  /** A release's artwork and its history (`/market/releases/{id}/artwork`). */
  artwork: {
    /**
     * The artwork of a public release at its current revision
     * (`GET /market/releases/{releaseId}/artwork`).
     *
     * @example
     * ```ts
     * const { revision, artwork } = await client.market.artwork.get(releaseId);
     * for (const tier of artwork.tiers) console.log(tier.tier, tier.cards.length);
     * ```
     */
    get(releaseId: string): Promise<ReleaseArtwork>;
    /** One page of the release's revisions, newest first. */
    history(releaseId: string, query?: ArtworkHistoryQuery): Promise<ArtworkHistory>;
    /**
     * Every revision of the release, newest first, following `next` to the end.
     *
     * @example
     * ```ts
     * for await (const revision of client.market.artwork.iterateHistory(releaseId, { changed: "artwork" })) {
     *   console.log(revision.revision, revision.changes.fields);
     * }
     * ```
     */
    iterateHistory(
      releaseId: string,
      query?: Omit<ArtworkHistoryQuery, "cursor">,
    ): AsyncGenerator<ArtworkRevision>;
  };
  /** Community rooms and their messages, and who follows whom (`/market/rooms`, `/market/accounts`). */
  community: {
    /** One page of rooms, by slug (`GET /market/rooms`). */
    rooms(query?: PageQuery): Promise<RoomList>;
    /**
     * One room with its message count and newest message time (`GET /market/rooms/{roomId}`).
     *
     * @example
     * ```ts
     * const { room, messages } = await client.market.community.room("room_…");
     * ```
     */
    room(roomId: string): Promise<RoomDetail>;
    /** One page of a room's messages, newest first. */
    messages(roomId: string, query?: PageQuery): Promise<RoomMessageList>;
    /** One page of the accounts following the account holding `address`. */
    followers(address: string, query?: PageQuery): Promise<FollowList>;
    /** One page of the accounts the account holding `address` follows. */
    following(address: string, query?: PageQuery): Promise<FollowList>;
  };
}

/** The public reads of the Board, Creators, Artwork, Community and Discovery groups. */
export function marketReadsApi(request: Transport): MarketReadsApi {
  const read = async <T>(url: string, schema: { parse(input: unknown): T }, query?: object) => {
    const { body } = await request<unknown>({
      method: "GET",
      path: url,
      query: query as Record<string, string | number | undefined>,
    });
    return schema.parse(body);
  };

  return {
    discovery: (): Promise<Discovery> => read("/market/discovery", discoverySchema),

    board: {
      creators: (query: CreatorBoardQuery = {}): Promise<BoardCreatorList> =>
        read("/market/board/creators", boardCreatorListSchema, query),
      collectors: (query: CollectorBoardQuery = {}): Promise<BoardCollectorList> =>
        read("/market/board/collectors", boardCollectorListSchema, query),
    },

    creators: {
      get: (address: string): Promise<Creator> => read(path("/market/creators/{}", address), creatorSchema),
      releases: (address: string, query: PageQuery = {}): Promise<CreatorReleaseList> =>
        read(path("/market/creators/{}/releases", address), creatorReleaseListSchema, query),
      drops: (address: string, query: PageQuery = {}): Promise<CreatorDropList> =>
        read(path("/market/creators/{}/drops", address), creatorDropListSchema, query),
      iterateReleases: (address: string, { limit }: { limit?: number } = {}): AsyncGenerator<Release> =>
        everyItem(
          (cursor) =>
            read(path("/market/creators/{}/releases", address), creatorReleaseListSchema, { cursor, limit }),
          (page) => page.releases,
        ),
      iterateDrops: (address: string, { limit }: { limit?: number } = {}): AsyncGenerator<CreatorDrop> =>
        everyItem(
          (cursor) =>
            read(path("/market/creators/{}/drops", address), creatorDropListSchema, { cursor, limit }),
          (page) => page.drops,
        ),
    },

    artwork: {
      get: (releaseId: string): Promise<ReleaseArtwork> =>
        read(path("/market/releases/{}/artwork", releaseId), releaseArtworkSchema),
      history: (releaseId: string, query: ArtworkHistoryQuery = {}): Promise<ArtworkHistory> =>
        read(path("/market/releases/{}/artwork/history", releaseId), artworkHistorySchema, query),
      iterateHistory: (
        releaseId: string,
        query: Omit<ArtworkHistoryQuery, "cursor"> = {},
      ): AsyncGenerator<ArtworkRevision> =>
        everyItem(
          (cursor) =>
            read(path("/market/releases/{}/artwork/history", releaseId), artworkHistorySchema, {
              ...query,
              cursor,
            }),
          (page) => page.revisions,
        ),
    },

    community: {
      rooms: (query: PageQuery = {}): Promise<RoomList> => read("/market/rooms", roomListSchema, query),
      room: (roomId: string): Promise<RoomDetail> => read(path("/market/rooms/{}", roomId), roomDetailSchema),
      messages: (roomId: string, query: PageQuery = {}): Promise<RoomMessageList> =>
        read(path("/market/rooms/{}/messages", roomId), roomMessageListSchema, query),
      followers: (address: string, query: PageQuery = {}): Promise<FollowList> =>
        read(path("/market/accounts/{}/followers", address), followListSchema, query),
      following: (address: string, query: PageQuery = {}): Promise<FollowList> =>
        read(path("/market/accounts/{}/following", address), followListSchema, query),
    },
  };
}
