import type { DmMessage, DmMessageList, DmThreadList, DmUnread, SocialActionResult } from "@mkt/protocol";
import { sql } from "kysely";
import { badRequest, forbidden, notFound } from "../../errors.ts";
import { newId } from "../../identity/index.ts";
import { idCursor, type PagedServiceDeps, type PageRequest, toPage } from "../../paging/index.ts";
import { type Actor, blocksBetween, type Executor, requireAccount } from "./directory.ts";

export interface DmService {
  /** The `dm` action. */
  send(sender: Actor, to: string, body: string): Promise<SocialActionResult<"dm">>;
  /** The `dm-seen` action: marks the conversation read up to `upTo`, or up to its newest message. */
  markSeen(reader: Actor, withWallet: string, upTo?: string): Promise<SocialActionResult<"dm-seen">>;
  /**
   * `GET /dm/threads`: the caller's conversations, most recent activity
   * first. The caller is either side of a thread: each side is read in
   * order from its own index (`dm_threads_a`, `dm_threads_b`), a page at a
   * time, and the two merged, so a page costs the same however many
   * conversations the account has.
   */
  threads(me: string, options: PageRequest): Promise<DmThreadList>;
  /** `GET /dm/messages`: one conversation's messages, newest first. */
  messages(me: string, withWallet: string, options: PageRequest): Promise<DmMessageList>;
  /**
   * `GET /dm/unread`: unread messages and the conversations holding them:
   * the unread counts the threads keep, read for the caller's threads that
   * have any, each side from its own partial index.
   */
  unread(me: string): Promise<DmUnread>;
}

/**
 * Direct messages between two accounts.
 *
 * One thread per pair of accounts (`account_a < account_b`). Each side keeps
 * the id of the newest message it has seen (`seen_a`, `seen_b`); a message
 * is unread for an account when the other account sent it and its id is
 * above that mark. Marks only move forward. Each side also keeps its count
 * of unread messages (`unread_a`, `unread_b`): a send adds one to the
 * recipient's (unless a `dm-seen` that committed first already passed the
 * message's id), a `dm-seen` recounts the messages after the new mark with
 * the thread row locked, so reads never count messages.
 *
 * Who may write whom: nobody messages an account that blocked them or that
 * they blocked, and the recipient's `dmPolicy` decides the rest (`everyone`;
 * `following`: only accounts the recipient follows; `nobody`).
 */
export function createDmService({ db, clock, cursors }: PagedServiceDeps): DmService {
  const k = db.kysely;

  /** The thread of two accounts; `lock` holds its row until the transaction ends (`dm-seen`). */
  const threadBetween = async (tx: Executor, me: string, other: string, lock = false) => {
    const [a, b] = me < other ? [me, other] : [other, me];
    const query = tx
      .selectFrom("dm_threads")
      .select(["id", "account_a", "last_message_id", "seen_a", "seen_b"])
      .where("account_a", "=", a)
      .where("account_b", "=", b);
    return (lock ? query.forUpdate() : query).executeTakeFirst();
  };

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
        // Concurrent sends may commit out of id order: the newest id wins. The message is unread
        // for the recipient unless a dm-seen that committed first already passed its id.
        const side = thread.account_a === recipient.id ? "a" : "b";
        const recipientUnread = `unread_${side}` as const;
        await tx
          .updateTable("dm_threads")
          .set({
            last_message_id: sql<string>`greatest(last_message_id, ${message.id}::bigint)`,
            last_message_at: sql<Date>`greatest(last_message_at, ${now})`,
            [recipientUnread]: sql<number>`${sql.ref(recipientUnread)} + CASE WHEN ${message.id}::bigint > ${sql.ref(`seen_${side}`)} THEN 1 ELSE 0 END`,
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

    async markSeen(reader: Actor, withWallet: string, upTo?: string): Promise<SocialActionResult<"dm-seen">> {
      return k.transaction().execute(async (tx) => {
        const other = await requireAccount(tx, withWallet);
        if (other.id === reader.accountId) throw badRequest("there is no conversation with yourself");
        // Locked first: a send committing meanwhile either waits for this recount or is counted by it.
        const thread = await threadBetween(tx, reader.accountId, other.id, true);
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
        const side = thread.account_a === reader.accountId ? "a" : "b";
        const seen = String(
          BigInt(thread[`seen_${side}`]) > BigInt(target) ? thread[`seen_${side}`] : target,
        );
        const unread = await unreadIn(tx, thread.id, reader.accountId, seen);
        await tx
          .updateTable("dm_threads")
          .set({ [`seen_${side}`]: seen, [`unread_${side}`]: unread })
          .where("id", "=", thread.id)
          .execute();
        return { threadId: thread.id, with: other.address, seenUpTo: seen, unread };
      });
    },

    async threads(me: string, { cursor, limit }: PageRequest): Promise<DmThreadList> {
      const threadsCursor = idCursor.for(cursors, "dm-threads", me);
      const before = cursor === undefined ? undefined : threadsCursor.decode(cursor);
      const older = (column: string) =>
        before === undefined ? sql`` : sql`AND ${sql.ref(column)} < ${before}::bigint`;
      const { rows } = await sql<{
        id: string;
        last_message_id: string;
        primary_address: string;
        username: string | null;
        message_id: string;
        sender_id: string;
        sender_wallet: string;
        body: string;
        created_at: Date;
        unread: number;
      }>`
        SELECT t.id, t.last_message_id, o.primary_address, o.username,
               m.id AS message_id, m.sender_id, m.sender_wallet, m.body, m.created_at, t.unread
        FROM (
          -- The page's threads first; then, for those alone, the other account and the newest message.
          SELECT * FROM (
          (SELECT id, account_b AS other_id, last_message_id, unread_a AS unread FROM dm_threads
           WHERE account_a = ${me} ${older("last_message_id")}
           ORDER BY last_message_id DESC LIMIT ${limit + 1})
          UNION ALL
          (SELECT id, account_a AS other_id, last_message_id, unread_b AS unread FROM dm_threads
           WHERE account_b = ${me} ${older("last_message_id")}
           ORDER BY last_message_id DESC LIMIT ${limit + 1})
          ) sides ORDER BY last_message_id DESC LIMIT ${limit + 1}
        ) t
        -- Looked up by key for the page's threads alone (LIMIT 1 keeps each a lookup, never a scan).
        CROSS JOIN LATERAL (SELECT primary_address, username FROM accounts WHERE id = t.other_id LIMIT 1) o
        CROSS JOIN LATERAL (
          SELECT id, sender_id, sender_wallet, body, created_at FROM dm_messages WHERE id = t.last_message_id LIMIT 1
        ) m
        ORDER BY t.last_message_id DESC
        LIMIT ${limit + 1}`.execute(k);
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
        (row) => String(row.last_message_id),
      );
      return { threads: page.items, next: page.next };
    },

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

    async unread(me: string): Promise<DmUnread> {
      const { rows } = await sql<{ messages: string; threads: string }>`
        SELECT coalesce(sum(t.unread), 0) AS messages, count(*) AS threads
        FROM (
          SELECT unread_a AS unread FROM dm_threads WHERE account_a = ${me} AND unread_a > 0
          UNION ALL
          SELECT unread_b FROM dm_threads WHERE account_b = ${me} AND unread_b > 0
        ) t`.execute(k);
      return { messages: Number(rows[0]?.messages ?? 0), threads: Number(rows[0]?.threads ?? 0) };
    },
  };
}
