import type { DmMessage, DmMessageList, DmThreadList, DmUnread, SocialActionResult } from "@mkt/protocol";
import { sql } from "kysely";
import { badRequest, forbidden, notFound } from "../../errors.ts";
import { newId } from "../../identity/index.ts";
import { type Actor, blocksBetween, type Executor, requireAccount } from "./directory.ts";
import { idCursor, type PagedServiceDeps, type PageRequest, toPage } from "./paging.ts";

/**
 * Direct messages between two accounts (market-api.md sections 1 and 4).
 *
 * One thread per pair of accounts (`account_a < account_b`). Each side keeps
 * the id of the newest message it has seen (`seen_a`, `seen_b`); a message
 * is unread for an account when the other account sent it and its id is
 * above that mark. Marks only move forward.
 *
 * Who may write whom: nobody messages an account that blocked them or that
 * they blocked, and the recipient's `dmPolicy` decides the rest (`everyone`;
 * `following`: only accounts the recipient follows; `nobody`).
 */
export function createDmService({ db, clock, cursors }: PagedServiceDeps) {
  const k = db.kysely;

  const threadBetween = async (tx: Executor, me: string, other: string) => {
    const [a, b] = me < other ? [me, other] : [other, me];
    return tx
      .selectFrom("dm_threads")
      .select(["id", "account_a", "last_message_id", "seen_a", "seen_b"])
      .where("account_a", "=", a)
      .where("account_b", "=", b)
      .executeTakeFirst();
  };

  /** The caller's side of a thread: whose seen mark is theirs. */
  const seenOf = (me: string) => sql<string>`case when t.account_a = ${me} then t.seen_a else t.seen_b end`;

  const unreadIn = async (tx: Executor, threadId: string, me: string, seen: string) => {
    const row = await tx
      .selectFrom("dm_messages")
      .select((eb) => eb.fn.countAll<string>().as("count"))
      .where("thread_id", "=", threadId)
      .where("id", ">", seen)
      .where("sender_id", "<>", me)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  };

  const toMessage =
    (me: string) =>
    (row: {
      id: string;
      sender_id: string;
      sender_wallet: string;
      body: string;
      created_at: Date;
    }): DmMessage => ({
      id: row.id,
      from: row.sender_wallet,
      fromMe: row.sender_id === me,
      body: row.body,
      createdAt: row.created_at.getTime(),
    });

  return {
    /** The `dm` action. */
    async send(sender: Actor, to: string, body: string): Promise<SocialActionResult<"dm">> {
      return k.transaction().execute(async (tx) => {
        const recipient = await requireAccount(tx, to);
        if (recipient.id === sender.accountId)
          throw badRequest("you cannot send a direct message to yourself");
        const blocks = await blocksBetween(tx, sender.accountId, recipient.id);
        if (blocks.iBlocked) throw forbidden("you blocked this account; unblock it to message it");
        if (blocks.blockedMe) throw forbidden("this account does not accept direct messages from you");
        if (recipient.dmPolicy === "nobody") throw forbidden("this account accepts no direct messages");
        if (recipient.dmPolicy === "following") {
          const followed = await tx
            .selectFrom("follows")
            .select("follower_id")
            .where("follower_id", "=", recipient.id)
            .where("followee_id", "=", sender.accountId)
            .executeTakeFirst();
          if (!followed)
            throw forbidden("this account accepts direct messages only from accounts it follows");
        }

        const now = new Date(clock.now());
        const [a, b] =
          sender.accountId < recipient.id
            ? [sender.accountId, recipient.id]
            : [recipient.id, sender.accountId];
        await tx
          .insertInto("dm_threads")
          .values({ id: newId("dm"), account_a: a, account_b: b, created_at: now, last_message_at: now })
          .onConflict((oc) => oc.columns(["account_a", "account_b"]).doNothing())
          .execute();
        const thread = await threadBetween(tx, sender.accountId, recipient.id);
        if (!thread) throw new Error("the DM thread vanished inside its transaction");
        const message = await tx
          .insertInto("dm_messages")
          .values({
            thread_id: thread.id,
            sender_id: sender.accountId,
            sender_wallet: sender.wallet,
            body,
            created_at: now,
          })
          .returning(["id", "created_at"])
          .executeTakeFirstOrThrow();
        // Concurrent sends may commit out of id order: the newest id wins.
        await tx
          .updateTable("dm_threads")
          .set({
            last_message_id: sql<string>`greatest(last_message_id, ${message.id}::bigint)`,
            last_message_at: sql<Date>`greatest(last_message_at, ${now})`,
          })
          .where("id", "=", thread.id)
          .execute();
        return {
          id: message.id,
          threadId: thread.id,
          to: recipient.address,
          createdAt: message.created_at.getTime(),
        };
      });
    },

    /** The `dm-seen` action: marks the conversation read up to `upTo`, or up to its newest message. */
    async markSeen(reader: Actor, withWallet: string, upTo?: string): Promise<SocialActionResult<"dm-seen">> {
      return k.transaction().execute(async (tx) => {
        const other = await requireAccount(tx, withWallet);
        if (other.id === reader.accountId) throw badRequest("there is no conversation with yourself");
        const thread = await threadBetween(tx, reader.accountId, other.id);
        if (!thread) throw notFound(`no conversation with ${withWallet}`);
        let target = thread.last_message_id;
        if (upTo !== undefined) {
          const message = await tx
            .selectFrom("dm_messages")
            .select("id")
            .where("id", "=", upTo)
            .where("thread_id", "=", thread.id)
            .executeTakeFirst();
          if (!message) throw notFound(`message ${upTo} is not in the conversation with ${withWallet}`);
          target = message.id;
        }
        const column = thread.account_a === reader.accountId ? "seen_a" : "seen_b";
        const updated = await tx
          .updateTable("dm_threads")
          .set({ [column]: sql<string>`greatest(${sql.ref(column)}, ${target}::bigint)` })
          .where("id", "=", thread.id)
          .returning(["seen_a", "seen_b"])
          .executeTakeFirstOrThrow();
        const seen = column === "seen_a" ? updated.seen_a : updated.seen_b;
        return {
          threadId: thread.id,
          with: other.address,
          seenUpTo: seen,
          unread: await unreadIn(tx, thread.id, reader.accountId, seen),
        };
      });
    },

    /** `GET /dm/threads`: the caller's conversations, most recent activity first. */
    async threads(me: string, { cursor, limit }: PageRequest): Promise<DmThreadList> {
      const threadsCursor = idCursor.for(cursors, "dm-threads", me);
      const other = sql<string>`case when t.account_a = ${me} then t.account_b else t.account_a end`;
      let query = k
        .selectFrom("dm_threads as t")
        .innerJoin("accounts as o", (join) => join.on("o.id", "=", other))
        .innerJoin("dm_messages as m", "m.id", "t.last_message_id")
        .select([
          "t.id",
          "t.last_message_id",
          "o.primary_address",
          "o.username",
          "m.id as message_id",
          "m.sender_id",
          "m.sender_wallet",
          "m.body",
          "m.created_at",
        ])
        .select((eb) =>
          eb
            .selectFrom("dm_messages as u")
            .select(eb.fn.countAll<string>().as("count"))
            .whereRef("u.thread_id", "=", "t.id")
            .where("u.id", ">", seenOf(me))
            .where("u.sender_id", "<>", me)
            .as("unread"),
        )
        .where((eb) => eb.or([eb("t.account_a", "=", me), eb("t.account_b", "=", me)]))
        .orderBy("t.last_message_id", "desc")
        .limit(limit + 1);
      if (cursor !== undefined) query = query.where("t.last_message_id", "<", threadsCursor.decode(cursor));
      const rows = await query.execute();
      const message = toMessage(me);
      const page = toPage(
        rows,
        limit,
        (row) => ({
          id: row.id,
          with: { address: row.primary_address, username: row.username },
          lastMessage: message({ ...row, id: row.message_id }),
          unread: Number(row.unread ?? 0),
        }),
        threadsCursor,
        (row) => row.last_message_id,
      );
      return { threads: page.items, next: page.next };
    },

    /** `GET /dm/messages`: one conversation's messages, newest first. */
    async messages(me: string, withWallet: string, { cursor, limit }: PageRequest): Promise<DmMessageList> {
      const other = await requireAccount(k, withWallet);
      const thread = other.id === me ? undefined : await threadBetween(k, me, other.id);
      if (!thread) throw notFound(`no conversation with ${withWallet}`);
      const messagesCursor = idCursor.for(cursors, "dm-messages", me, thread.id);
      const before = cursor === undefined ? undefined : messagesCursor.decode(cursor);
      let query = k
        .selectFrom("dm_messages")
        .select(["id", "sender_id", "sender_wallet", "body", "created_at"])
        .where("thread_id", "=", thread.id)
        .orderBy("id", "desc")
        .limit(limit + 1);
      if (before !== undefined) query = query.where("id", "<", before);
      const page = toPage(await query.execute(), limit, toMessage(me), messagesCursor, (row) => row.id);
      return {
        threadId: thread.id,
        with: { address: other.address, username: other.username },
        messages: page.items,
        next: page.next,
      };
    },

    /** `GET /dm/unread`: unread messages and the conversations holding them. */
    async unread(me: string): Promise<DmUnread> {
      const row = await k
        .selectFrom("dm_threads as t")
        .innerJoin("dm_messages as m", "m.thread_id", "t.id")
        .select((eb) => [
          eb.fn.countAll<string>().as("messages"),
          eb.fn.count<string>("m.thread_id").distinct().as("threads"),
        ])
        .where((eb) =>
          eb.or([
            eb.and([
              eb("t.account_a", "=", me),
              eb("t.last_message_id", ">", eb.ref("t.seen_a")),
              eb("m.id", ">", eb.ref("t.seen_a")),
            ]),
            eb.and([
              eb("t.account_b", "=", me),
              eb("t.last_message_id", ">", eb.ref("t.seen_b")),
              eb("m.id", ">", eb.ref("t.seen_b")),
            ]),
          ]),
        )
        .where("m.sender_id", "<>", me)
        .executeTakeFirstOrThrow();
      return { messages: Number(row.messages), threads: Number(row.threads) };
    },
  };
}

export type DmService = ReturnType<typeof createDmService>;
