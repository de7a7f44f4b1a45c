import {
  CLASSIC_DEFAULT_CHAIN_ID,
  type ClassicChatEvent,
  type ClassicChatMessage,
  type ClassicChatPage,
  type ClassicChatPosted,
  classicChatDeletedSchema,
  classicChatPageSchema,
  classicChatPostedSchema,
  classicChatStreamPath,
  parseClassicChatEvent,
} from "@mkt/protocol";
import { bearerHeaders, type ClassicCredential } from "./classic-auth.ts";
import type { Transport, TransportOptions } from "./http.ts";
import { type LiveSubscription, type StreamSubscriptionOptions, subscribeEventStream } from "./live.ts";

export interface ClassicChatListOptions {
  chainId?: number;
  /** 1 to 100; default 50. */
  limit?: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
}

export interface ClassicChatSubscribeOptions extends StreamSubscriptionOptions<ClassicChatEvent> {
  chainId?: number;
}

export interface ClassicChatApi {
  /**
   * One page of a game's messages, newest first (`GET /classic/chat/{game}`);
   * deleted ones as tombstones (`deleted: true`).
   *
   * @example
   * ```ts
   * const { messages, nextCursor } = await client.classic.chat.list("my-game-12", { limit: 20 });
   * ```
   */
  list(contractAddressOrSlug: string, options?: ClassicChatListOptions): Promise<ClassicChatPage>;
  /**
   * Every message of a game, newest first, page after page (an async iterator).
   *
   * @example
   * ```ts
   * for await (const message of client.classic.chat.iterate("0x…")) {
   *   if (message.createdAt < since) break;
   * }
   * ```
   */
  iterate(
    contractAddressOrSlug: string,
    options?: Omit<ClassicChatListOptions, "cursor">,
  ): AsyncGenerator<ClassicChatMessage>;
  /**
   * Posts a message as the signed-in wallet (`POST /classic/chat/{address}`;
   * needs `auth.signIn` first). A `clientMessageId` (generated when absent)
   * makes retries safe: the same id answers the first message (`replayed`).
   * At most 10 posts per account per minute (429 `CHAT_RATE_LIMITED`).
   *
   * @example
   * ```ts
   * const { message } = await client.classic.chat.post("0x…", "gm owls");
   * ```
   */
  post(
    contractAddress: string,
    text: string,
    options?: { chainId?: number; clientMessageId?: string },
  ): Promise<ClassicChatPosted>;
  /**
   * Deletes a message: the signed-in account's own, or any in a game it created.
   *
   * @example
   * ```ts
   * await client.classic.chat.delete("0x…", message.id);
   * ```
   */
  delete(contractAddress: string, messageId: string, options?: { chainId?: number }): Promise<void>;
  /**
   * Subscribes to a game's chat stream (`GET /classic/chat/{game}/stream`):
   * `message` and `deleted` wakeups, after which the app re-reads `list`.
   * Reconnects with backoff, jitter and `Last-Event-ID`; `onResync` runs
   * when events were missed (re-read the messages).
   *
   * @example
   * ```ts
   * const chat = client.classic.chat.subscribe("my-game-12", {
   *   onEvent: (event) => {
   *     if (event.event === "message" || event.event === "deleted") void reload();
   *   },
   *   onResync: () => reload(),
   * });
   * // later
   * chat.close();
   * ```
   */
  subscribe(contractAddressOrSlug: string, options: ClassicChatSubscribeOptions): LiveSubscription;
}

/**
 * A game's chat (`/classic/chat`): read with the API key, post and delete
 * once signed in (`client.classic.auth.signIn`), and a stream of refresh
 * signals.
 */
export function classicChatApi(
  request: Transport,
  credential: ClassicCredential,
  stream: TransportOptions,
): ClassicChatApi {
  const game = (contractAddressOrSlug: string) =>
    `/classic/chat/${encodeURIComponent(contractAddressOrSlug)}`;
  const chainQuery = (chainId: number | undefined) =>
    chainId === undefined || chainId === CLASSIC_DEFAULT_CHAIN_ID ? {} : { chainId };

  const list = async (
    contractAddressOrSlug: string,
    options: ClassicChatListOptions = {},
  ): Promise<ClassicChatPage> => {
    const { body } = await request<unknown>({
      method: "GET",
      path: game(contractAddressOrSlug),
      query: { ...chainQuery(options.chainId), limit: options.limit, cursor: options.cursor },
    });
    return classicChatPageSchema.parse(body);
  };

  return {
    list,

    async *iterate(
      contractAddressOrSlug: string,
      options: Omit<ClassicChatListOptions, "cursor"> = {},
    ): AsyncGenerator<ClassicChatMessage> {
      let cursor: string | undefined;
      do {
        const page = await list(contractAddressOrSlug, { ...options, ...(cursor ? { cursor } : {}) });
        yield* page.messages;
        cursor = page.nextCursor ?? undefined;
      } while (cursor !== undefined);
    },

    async post(
      contractAddress: string,
      text: string,
      options: { chainId?: number; clientMessageId?: string } = {},
    ): Promise<ClassicChatPosted> {
      const { body } = await request<unknown>({
        method: "POST",
        path: game(contractAddress),
        query: chainQuery(options.chainId),
        body: { text, clientMessageId: options.clientMessageId ?? crypto.randomUUID() },
        headers: bearerHeaders(credential),
      });
      return classicChatPostedSchema.parse(body);
    },

    async delete(
      contractAddress: string,
      messageId: string,
      options: { chainId?: number } = {},
    ): Promise<void> {
      const { body } = await request<unknown>({
        method: "DELETE",
        path: `${game(contractAddress)}/${encodeURIComponent(messageId)}`,
        query: chainQuery(options.chainId),
        headers: bearerHeaders(credential),
      });
      classicChatDeletedSchema.parse(body);
    },

    subscribe(contractAddressOrSlug: string, options: ClassicChatSubscribeOptions): LiveSubscription {
      const url = new URL(
        `${stream.baseUrl.replace(/\/+$/, "")}${classicChatStreamPath(contractAddressOrSlug)}`,
      );
      const { chainId, ...live } = options;
      if (chainId !== undefined && chainId !== CLASSIC_DEFAULT_CHAIN_ID)
        url.searchParams.set("chainId", String(chainId));
      return subscribeEventStream(stream, { url, surface: "classic", parse: parseClassicChatEvent }, live);
    },
  };
}
