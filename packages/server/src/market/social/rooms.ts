import type {
  Room,
  RoomDetail,
  RoomList,
  RoomMessage,
  RoomMessageList,
  SocialActionResult,
} from "@mkt/protocol";
import { AppError, forbidden, notFound } from "../../errors.ts";
import { newId } from "../../identity/index.ts";
import { idCursor, type PagedServiceDeps, type PageRequest, textCursor, toPage } from "../../paging/index.ts";
import type { Actor, Executor } from "./directory.ts";

export interface NewRoom {
  slug: string;
  title: string;
  description?: string | undefined;
}

export interface NewRoomMessage {
  body: string;
  replyTo?: string | undefined;
}

export interface RoomService {
  /** The `room-create` action; a taken slug is a 409. */
  create(creator: Actor, room: NewRoom): Promise<Room>;
  /** The `chat-send` action and `POST /rooms/{roomId}/messages`. */
  send(author: Actor, roomId: string, message: NewRoomMessage): Promise<RoomMessage>;
  /** The `chat-delete` action: the author, or the creator of the message's room. */
  deleteMessage(caller: Actor, messageId: string): Promise<SocialActionResult<"chat-delete">>;
  /** `GET /rooms`: every room, by slug. */
  list(options: PageRequest): Promise<RoomList>;
  /** `GET /rooms/{roomId}`: the room, how many messages it holds and when the newest was written. */
  get(roomId: string): Promise<RoomDetail>;
  /** `GET /rooms/{roomId}/messages`: newest first. */
  messages(roomId: string, options: PageRequest): Promise<RoomMessageList>;
}

/**
 * Chat rooms and their messages. Anyone with an account creates rooms and
 * writes in them; a message is deleted by its author or by the room's
 * creator. Messages of a deleted account go with it (the foreign key
 * cascades); a room outlives its creator.
 */
export function createRoomService({ db, clock, cursors }: PagedServiceDeps): RoomService {
  const k = db.kysely;
  const roomsCursor = textCursor.for(cursors, "rooms");

  const roomQuery = (tx: Executor) =>
    tx
      .selectFrom("rooms as r")
      .leftJoin("accounts as a", "a.id", "r.created_by")
      .select(["r.id", "r.slug", "r.title", "r.description", "r.created_at", "a.primary_address"]);

  const toRoom = (row: {
    id: string;
    slug: string;
    title: string;
    description: string;
    created_at: Date;
    primary_address: string | null;
  }): Room => ({
    id: row.id,
    slug: row.slug,
    title: row.title,
    description: row.description,
    createdBy: row.primary_address,
    createdAt: row.created_at.getTime(),
  });

  const messageQuery = (tx: Executor) =>
    tx
      .selectFrom("room_messages as m")
      .innerJoin("accounts as a", "a.id", "m.account_id")
      .select(["m.id", "m.room_id", "m.wallet", "a.username", "m.body", "m.reply_to", "m.created_at"]);

  const toMessage = (row: {
    id: string;
    room_id: string;
    wallet: string;
    username: string | null;
    body: string;
    reply_to: string | null;
    created_at: Date;
  }): RoomMessage => ({
    id: row.id,
    roomId: row.room_id,
    from: row.wallet,
    username: row.username,
    body: row.body,
    replyTo: row.reply_to,
    createdAt: row.created_at.getTime(),
  });

  const requireRoom = async (tx: Executor, roomId: string) => {
    const room = await tx
      .selectFrom("rooms")
      .select(["id", "created_by"])
      .where("id", "=", roomId)
      .executeTakeFirst();
    if (!room) throw notFound(`no room ${roomId}`);
    return room;
  };

  return {
    async create(creator: Actor, room: NewRoom): Promise<Room> {
      const id = newId("room");
      const inserted = await k
        .insertInto("rooms")
        .values({
          id,
          slug: room.slug,
          title: room.title,
          description: room.description ?? "",
          created_by: creator.accountId,
          created_at: new Date(clock.now()),
        })
        .onConflict((oc) => oc.column("slug").doNothing())
        .returning("id")
        .executeTakeFirst();
      if (!inserted) throw new AppError("conflict", `the room slug ${room.slug} is taken`);
      return toRoom(await roomQuery(k).where("r.id", "=", id).executeTakeFirstOrThrow());
    },

    async send(author: Actor, roomId: string, message: NewRoomMessage): Promise<RoomMessage> {
      return k.transaction().execute(async (tx) => {
        await requireRoom(tx, roomId);
        if (message.replyTo !== undefined) {
          const original = await tx
            .selectFrom("room_messages")
            .select("id")
            .where("id", "=", message.replyTo)
            .where("room_id", "=", roomId)
            .executeTakeFirst();
          if (!original) throw notFound(`replyTo: no message ${message.replyTo} in room ${roomId}`);
        }
        const { id } = await tx
          .insertInto("room_messages")
          .values({
            room_id: roomId,
            account_id: author.accountId,
            wallet: author.wallet,
            body: message.body,
            reply_to: message.replyTo ?? null,
            created_at: new Date(clock.now()),
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        return toMessage(await messageQuery(tx).where("m.id", "=", id).executeTakeFirstOrThrow());
      });
    },

    async deleteMessage(caller: Actor, messageId: string): Promise<SocialActionResult<"chat-delete">> {
      return k.transaction().execute(async (tx) => {
        const message = await tx
          .selectFrom("room_messages as m")
          .innerJoin("rooms as r", "r.id", "m.room_id")
          .select(["m.id", "m.account_id", "r.created_by"])
          .where("m.id", "=", messageId)
          .executeTakeFirst();
        if (!message) throw notFound(`no room message ${messageId}`);
        if (message.account_id !== caller.accountId && message.created_by !== caller.accountId) {
          throw forbidden("only the message's author or the room's creator may delete it");
        }
        await tx.deleteFrom("room_messages").where("id", "=", message.id).execute();
        return { id: message.id, deleted: true as const };
      });
    },

    async list({ cursor, limit }: PageRequest): Promise<RoomList> {
      let query = roomQuery(k)
        .orderBy("r.slug")
        .limit(limit + 1);
      if (cursor !== undefined) query = query.where("r.slug", ">", roomsCursor.decode(cursor));
      const page = toPage(await query.execute(), limit, toRoom, roomsCursor, (row) => row.slug);
      return { rooms: page.items, next: page.next };
    },

    async get(roomId: string): Promise<RoomDetail> {
      const row = await roomQuery(k).where("r.id", "=", roomId).executeTakeFirst();
      if (!row) throw notFound(`no room ${roomId}`);
      const activity = await k
        .selectFrom("room_messages")
        .select((eb) => [
          eb.fn.countAll<string | number>().as("messages"),
          eb.fn.max("created_at").as("last_message_at"),
        ])
        .where("room_id", "=", roomId)
        .executeTakeFirstOrThrow();
      const last = activity.last_message_at as Date | string | null;
      return {
        room: toRoom(row),
        messages: Number(activity.messages),
        lastMessageAt: last === null ? null : new Date(last).getTime(),
      };
    },

    async messages(roomId: string, { cursor, limit }: PageRequest): Promise<RoomMessageList> {
      const messagesCursor = idCursor.for(cursors, "room-messages", roomId);
      const before = cursor === undefined ? undefined : messagesCursor.decode(cursor);
      await requireRoom(k, roomId);
      let query = messageQuery(k)
        .where("m.room_id", "=", roomId)
        .orderBy("m.id", "desc")
        .limit(limit + 1);
      if (before !== undefined) query = query.where("m.id", "<", before);
      const page = toPage(await query.execute(), limit, toMessage, messagesCursor, (row) => row.id);
      return { roomId, messages: page.items, next: page.next };
    },
  };
}
