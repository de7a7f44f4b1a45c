import {
  CLASSIC_CHAT,
  CLASSIC_ERROR_CODES,
  type ClassicChatMessage,
  type ClassicChatPage,
} from "@mkt/protocol";
import { sql } from "kysely";
import type { Database } from "../../db/index.ts";
import { badRequest, forbidden, notFound } from "../../errors.ts";
import type { ProfileReader } from "../../identity/index.ts";
import type { CursorSigner } from "../../paging/index.ts";
import type { Clock } from "../../quotas/limiter.ts";
import { accountLimitReached } from "../account-limits.ts";
import { controlsWallet } from "../auth/ownership.ts";
import type { ClassicGameDirectory } from "../directory.ts";
import { classicProfileFields } from "../user-data.ts";

/** A game whose chat is read or written. */
export interface ChatGame {
  chainId: number;
  contractAddress: string;
  /** The creator's wallet (lowercase): who may moderate. */
  creator: string;
}

/** Who posts or deletes: the signed-in account (plain values from the bearer token). */
export interface ChatActor {
  accountId: string;
  /** The wallet the token signed in with: a message's author address. */
  address: string;
  /** Every wallet linked to the account now (creator moderation). */
  wallets: readonly string[];
}

export interface ChatLimits {
  postsPerWindow: number;
  windowMs: number;
}

interface MessageRow {
  id: string;
  chain_id: number;
  contract_address: string;
  account_id: string;
  author_address: string;
  text: string;
  client_message_id: string | null;
  created_at: Date | string;
  deleted_at: Date | string | null;
}

const COLUMNS = sql`id::text AS id, chain_id, contract_address, account_id, author_address, text,
  client_message_id, created_at, deleted_at`;

const MESSAGE_ID = /^[1-9][0-9]{0,17}$/;

/**
 * Opaque page cursors: the id of the last message of the page, signed by
 * the deployment's cursor signer for the game's list, so a cursor of another
 * game's chat, or one made by hand, is a 400.
 */
const chatCursor = (cursors: CursorSigner, game: ChatGame) => {
  const binding = ["classic-chat", String(game.chainId), game.contractAddress];
  return {
    encode: (id: string) => cursors.sign(binding, id),
    decode(cursor: string): string {
      const id = cursors.open(binding, cursor);
      if (typeof id !== "string" || !MESSAGE_ID.test(id))
        throw badRequest("cursor is not one this route issued");
      return id;
    },
  };
};

export interface ClassicChatService {
  /** The posting limits in force. */
  limits: ChatLimits;
  /** The game of `addressOrSlug` on `chainId`; 404 `GAME_NOT_FOUND` when the chain has none. */
  game(chainId: number, addressOrSlug: string): Promise<ChatGame>;
  /** A page of the game's messages, newest first, tombstones included. */
  list(game: ChatGame, page: { limit: number; cursor?: string | undefined }): Promise<ClassicChatPage>;
  /**
   * Posts a message as the actor's signing wallet. A `clientMessageId`
   * already used by the account in this game answers that message
   * (`replayed`). At most `postsPerWindow` posts per account in a sliding
   * `windowMs`, counted in the database under a per-account lock, so the
   * limit holds across replicas; beyond it 429 `CHAT_RATE_LIMITED`.
   */
  post(
    actor: ChatActor,
    game: ChatGame,
    input: { text: string; clientMessageId?: string | undefined },
  ): Promise<{ message: ClassicChatMessage; replayed: boolean }>;
  /**
   * Deletes a message (keeps a tombstone without text). Its author's
   * account or the game's creator (a wallet of the account) only, else 403;
   * 404 `MESSAGE_NOT_FOUND` for an id not in this game. Deleting a deleted
   * message changes nothing.
   */
  delete(actor: ChatActor, game: ChatGame, messageId: string): Promise<void>;
}

/**
 * The game chat: durable messages per game, posted by signed-in accounts,
 * deleted by their author or the game's creator. Every insert and deletion
 * writes its live event in the same transaction (triggers of migration
 * 0024), which the chat stream fans out.
 */
export function createClassicChatService({
  db,
  clock,
  directory,
  profiles,
  cursors,
  limits = { postsPerWindow: CLASSIC_CHAT.postsPerWindow, windowMs: CLASSIC_CHAT.windowSeconds * 1000 },
}: {
  db: Database;
  clock: Clock;
  directory: Pick<ClassicGameDirectory, "resolve">;
  profiles: Pick<ProfileReader, "ofAccount">;
  /** Signs the message list's page cursors. */
  cursors: CursorSigner;
  limits?: ChatLimits;
}): ClassicChatService {
  const k = db.kysely;

  /** The wire messages of some rows, each author's shared profile read once. */
  const render = async (rows: readonly MessageRow[]): Promise<ClassicChatMessage[]> => {
    const accounts = [...new Set(rows.map((row) => row.account_id))];
    const found = await Promise.all(accounts.map((id) => profiles.ofAccount(id)));
    const profileOf = new Map(accounts.map((id, index) => [id, found[index]]));
    return rows.map((row) => {
      const profile = profileOf.get(row.account_id);
      const deleted = row.deleted_at !== null;
      return {
        id: row.id,
        contractAddress: row.contract_address,
        chainId: Number(row.chain_id),
        author: {
          address: row.author_address,
          userData: profile
            ? { id: row.account_id, ...classicProfileFields(profile), address: row.author_address }
            : null,
        },
        text: deleted ? "" : row.text,
        clientMessageId: row.client_message_id,
        createdAt: new Date(row.created_at).toISOString(),
        deleted,
      };
    });
  };

  return {
    limits,

    async game(chainId: number, addressOrSlug: string): Promise<ChatGame> {
      const address = await directory.resolve(chainId, addressOrSlug);
      const { rows } = address
        ? await sql<{ creator: string }>`
            SELECT creator FROM classic_games WHERE chain_id = ${chainId} AND drop_address = ${address}`.execute(
            k,
          )
        : { rows: [] };
      const creator = rows[0]?.creator;
      if (address === undefined || creator === undefined)
        throw notFound("no game with this address or slug on this chain", CLASSIC_ERROR_CODES.gameNotFound);
      return { chainId, contractAddress: address, creator: creator.toLowerCase() };
    },

    async list(
      game: ChatGame,
      page: { limit: number; cursor?: string | undefined },
    ): Promise<ClassicChatPage> {
      const cursor = chatCursor(cursors, game);
      const before = page.cursor === undefined ? undefined : cursor.decode(page.cursor);
      const { rows } = await sql<MessageRow>`
        SELECT ${COLUMNS} FROM classic_chat_messages
        WHERE chain_id = ${game.chainId} AND contract_address = ${game.contractAddress}
          ${before === undefined ? sql`` : sql`AND id < ${before}::bigint`}
        ORDER BY classic_chat_messages.id DESC LIMIT ${page.limit + 1}`.execute(k);
      const shown = rows.slice(0, page.limit);
      const last = shown.at(-1);
      return {
        success: true,
        messages: await render(shown),
        nextCursor: rows.length > page.limit && last ? cursor.encode(last.id) : null,
      };
    },

    async post(
      actor: ChatActor,
      game: ChatGame,
      input: { text: string; clientMessageId?: string | undefined },
    ): Promise<{ message: ClassicChatMessage; replayed: boolean }> {
      const now = clock.now();
      const { row, replayed } = await k.transaction().execute(async (tx) => {
        await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`mkt:classic-chat:${actor.accountId}`}, 0))`.execute(
          tx,
        );
        if (input.clientMessageId !== undefined) {
          const { rows } = await sql<MessageRow>`
            SELECT ${COLUMNS} FROM classic_chat_messages
            WHERE account_id = ${actor.accountId} AND chain_id = ${game.chainId}
              AND contract_address = ${game.contractAddress} AND client_message_id = ${input.clientMessageId}`.execute(
            tx,
          );
          if (rows[0]) return { row: rows[0], replayed: true };
        }
        const since = new Date(now - limits.windowMs);
        const { rows: recent } = await sql<{ posts: number; oldest: Date | string | null }>`
          SELECT count(*)::int AS posts, min(created_at) AS oldest FROM classic_chat_messages
          WHERE account_id = ${actor.accountId} AND created_at > ${since.toISOString()}`.execute(tx);
        const posts = Number(recent[0]?.posts ?? 0);
        if (posts >= limits.postsPerWindow) {
          throw accountLimitReached({
            message: `at most ${limits.postsPerWindow} chat messages per account in ${limits.windowMs / 1000} seconds`,
            code: CLASSIC_ERROR_CODES.chatRateLimited,
            oldestMs: recent[0]?.oldest ? new Date(recent[0].oldest).getTime() : now,
            windowMs: limits.windowMs,
            now,
            rateLimitHeaders: { limit: limits.postsPerWindow },
          });
        }
        const { rows } = await sql<MessageRow>`
          INSERT INTO classic_chat_messages
            (chain_id, contract_address, account_id, author_address, text, client_message_id, created_at)
          VALUES (${game.chainId}, ${game.contractAddress}, ${actor.accountId}, ${actor.address.toLowerCase()},
            ${input.text}, ${input.clientMessageId ?? null}, ${new Date(now).toISOString()})
          RETURNING ${COLUMNS}`.execute(tx);
        return { row: rows[0]!, replayed: false };
      });
      const [message] = await render([row]);
      return { message: message!, replayed };
    },

    async delete(actor: ChatActor, game: ChatGame, messageId: string): Promise<void> {
      const { rows } = await sql<{ account_id: string }>`
        SELECT account_id FROM classic_chat_messages
        WHERE id = ${messageId}::bigint AND chain_id = ${game.chainId}
          AND contract_address = ${game.contractAddress}`.execute(k);
      const message = rows[0];
      if (!message)
        throw notFound("no message with this id in this game", CLASSIC_ERROR_CODES.messageNotFound);
      const moderator = controlsWallet(actor, game.creator);
      if (message.account_id !== actor.accountId && !moderator)
        throw forbidden("only the message's author or the game's creator may delete it");
      await sql`
        UPDATE classic_chat_messages SET deleted_at = ${new Date(clock.now()).toISOString()}, deleted_by = ${actor.accountId}, text = ''
        WHERE id = ${messageId}::bigint AND deleted_at IS NULL`.execute(k);
    },
  };
}
