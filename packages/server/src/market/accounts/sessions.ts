import { createHash } from "node:crypto";
import { deletionMessage, type SignedEnvelopeFields, signInMessage } from "@mkt/protocol";
import type { Kysely, Transaction } from "kysely";
import type { Database, DB } from "../../db/index.ts";
import type { SessionKind } from "../../db/schema.ts";
import { AppError, badRequest, forbidden, unauthorized } from "../../errors.ts";
import { hashSecret } from "../../keys/secrets.ts";
import type { Clock } from "../../quotas/limiter.ts";
import { generateSessionToken, newId } from "./tokens.ts";
import type { WalletSignatureVerifier } from "./wallet-signatures.ts";

export const SESSION_LIFETIME_MS = 30 * 24 * 3_600_000;
export const CHAT_SESSION_LIFETIME_MS = 24 * 3_600_000;
export const ACCESS_SESSION_LIFETIME_MS = 7 * 24 * 3_600_000;
/** market-api.md section 5: `expires` at most five minutes ahead. */
export const MAX_SIGNATURE_WINDOW_MS = 5 * 60_000;

/** An authenticated session, as routes see it. */
export interface Session {
  id: string;
  kind: SessionKind;
  accountId: string | null;
  /** The wallet it acts as (account and chat sessions). */
  wallet: string | null;
  /** The signed origin (account and chat sessions). */
  origin: string | null;
  inviteId: string | null;
  createdAt: number;
  expiresAt: number;
}

export interface SignedEnvelopeValue {
  address: string;
  origin: string;
  nonce: string;
  expires: number;
  signature: string;
}

export interface SessionServiceOptions {
  db: Database;
  clock: Clock;
  verifier: WalletSignatureVerifier;
  allowedOrigins: readonly string[];
  /** How long a replica trusts a cached live session without asking the database. */
  cacheTtlMs?: number;
  maxCacheEntries?: number;
  onCacheFlush?: () => void;
}

/** Revocations are announced here: every replica drops the named sessions from its cache. */
export const SESSIONS_CHANNEL = "mkt_sessions";

type Executor = Kysely<DB> | Transaction<DB>;

const addressHash = (address: string) => createHash("sha256").update(address).digest("hex");

/**
 * Wallet sign-in and every session kind (account, chat, access), following
 * market-api.md sections 3 and 5.
 *
 * Account model: an account has one or more wallets, each proven by its own
 * signature. Signing in with a wallet no account holds creates an account
 * for it. A session is bound to the wallet that signed in and acts only as
 * that wallet; other wallets join an account through `wallet-link` with
 * their own signature. The Classic API's bearer tokens reuse this model.
 *
 * Tokens are 256-bit random values stored only as SHA-256 hashes. Revoked
 * rows stay (hash, kind, times, reason) so a token can never come back.
 */
export function createSessionService({
  db,
  clock,
  verifier,
  allowedOrigins,
  cacheTtlMs = 30_000,
  maxCacheEntries = 100_000,
  onCacheFlush,
}: SessionServiceOptions) {
  const allowed = new Set(allowedOrigins);

  /**
   * Live sessions by token hash, per replica, as for API keys: a session
   * route does not ask the database for a session it saw within the TTL.
   * Revocations drop the entry here at once and on every other replica
   * through NOTIFY; the TTL bounds staleness if a notification is lost, and
   * the cache is flushed when LISTEN reconnects. Unknown tokens are never
   * cached (nothing to gain, and budgets limit guessing).
   */
  const cache = new Map<string, { session: Session; until: number }>();
  const hashOfSession = new Map<string, string>();
  let unlisten: (() => Promise<void>) | undefined;
  const forget = (ids: readonly string[]) => {
    for (const id of ids) {
      const hash = hashOfSession.get(id);
      if (hash !== undefined) cache.delete(hash);
      hashOfSession.delete(id);
    }
  };
  const announceRevoked = async (ids: readonly string[]) => {
    if (ids.length === 0) return;
    forget(ids);
    // A lost notification is bounded by the cache TTL on the other replicas.
    await db.notify(SESSIONS_CHANNEL, JSON.stringify(ids)).catch(() => {});
  };
  const remember = (hash: string, session: Session) => {
    if (cache.size >= maxCacheEntries) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) {
        const entry = cache.get(oldest);
        cache.delete(oldest);
        if (entry) hashOfSession.delete(entry.session.id);
      }
    }
    cache.set(hash, { session, until: clock.now() + cacheTtlMs });
    hashOfSession.set(session.id, hash);
  };

  /**
   * The checks every signed envelope passes, in an order that lets nobody
   * burn another wallet's nonce: origin, time window, signature, and only then
   * the nonce is consumed (in the caller's transaction).
   */
  const verifyEnvelope = async (
    envelope: SignedEnvelopeValue,
    requestOrigin: string | undefined,
    message: (fields: SignedEnvelopeFields) => string,
  ) => {
    if (requestOrigin === undefined) throw forbidden("the Origin header is required to sign in");
    if (!allowed.has(requestOrigin)) {
      throw forbidden(`origin ${requestOrigin} may not sign in; only the first-party website origins may`);
    }
    if (envelope.origin !== requestOrigin) {
      throw forbidden("the request Origin does not equal the origin in the signed message");
    }
    const now = clock.now();
    if (envelope.expires <= now) throw unauthorized("the signed message has expired; sign a new one");
    if (envelope.expires > now + MAX_SIGNATURE_WINDOW_MS) {
      throw badRequest("expires must be at most five minutes ahead");
    }
    const text = message({
      origin: envelope.origin,
      address: envelope.address,
      nonce: envelope.nonce,
      expires: envelope.expires,
    });
    const valid = await verifier.verify({
      address: envelope.address,
      message: text,
      signature: envelope.signature,
    });
    if (!valid) throw unauthorized("the signature is not valid for this wallet and message");
  };

  /** Marks a verified envelope's nonce used; a second use of a nonce is refused. */
  const consumeNonce = async (tx: Executor, envelope: SignedEnvelopeValue, purpose: string) => {
    const inserted = await tx
      .insertInto("used_nonces")
      .values({
        nonce: envelope.nonce,
        purpose,
        expires_at: new Date(envelope.expires + MAX_SIGNATURE_WINDOW_MS),
      })
      .onConflict((oc) => oc.column("nonce").doNothing())
      .returning("nonce")
      .executeTakeFirst();
    if (!inserted) throw unauthorized("this nonce was already used; sign a new message with a fresh nonce");
  };

  const accountOfWallet = async (tx: Executor, address: string) =>
    (
      await tx
        .selectFrom("account_wallets")
        .select("account_id")
        .where("address", "=", address)
        .executeTakeFirst()
    )?.account_id;

  const insertSession = async (
    tx: Executor,
    values: {
      kind: SessionKind;
      accountId: string | null;
      wallet: string | null;
      origin: string | null;
      inviteId?: string | null;
      parentId?: string | null;
      expiresAt: number;
    },
  ) => {
    const token = generateSessionToken(values.kind);
    const id = newId("ses");
    await tx
      .insertInto("sessions")
      .values({
        id,
        token_hash: hashSecret(token),
        kind: values.kind,
        account_id: values.accountId,
        wallet: values.wallet,
        origin: values.origin,
        invite_id: values.inviteId ?? null,
        parent_id: values.parentId ?? null,
        created_at: new Date(clock.now()),
        expires_at: new Date(values.expiresAt),
      })
      .execute();
    return { id, token, expiresAt: values.expiresAt };
  };

  const revokeWhere = async (
    tx: Executor,
    column: "id" | "account_id" | "parent_id",
    value: string,
    reason: string,
  ) => {
    const revoked = await tx
      .updateTable("sessions")
      .set({ revoked_at: new Date(clock.now()), revoked_reason: reason })
      .where(column, "=", value)
      .where("revoked_at", "is", null)
      .returning("id")
      .execute();
    return revoked.map((row) => row.id);
  };

  return {
    verifyEnvelope,
    consumeNonce,
    accountOfWallet,

    /** Subscribes to revocations from other replicas. */
    async start() {
      unlisten = await db.listen(SESSIONS_CHANNEL, {
        onNotify: (payload) => {
          try {
            const ids = JSON.parse(payload) as unknown;
            if (Array.isArray(ids)) forget(ids.filter((id): id is string => typeof id === "string"));
          } catch {
            cache.clear();
            hashOfSession.clear();
          }
        },
        onReconnect: () => {
          cache.clear();
          hashOfSession.clear();
          onCacheFlush?.();
        },
      });
    },
    async stop() {
      await unlisten?.();
      unlisten = undefined;
    },

    /** `POST /market/account/session`. */
    async signIn(envelope: SignedEnvelopeValue, requestOrigin: string | undefined) {
      await verifyEnvelope(envelope, requestOrigin, signInMessage);
      return db.kysely.transaction().execute(async (tx) => {
        await consumeNonce(tx, envelope, "sign-in");
        let accountId = await accountOfWallet(tx, envelope.address);
        if (accountId === undefined) {
          accountId = newId("acct");
          await tx
            .insertInto("accounts")
            .values({ id: accountId, primary_address: envelope.address, username: null, referred_by: null })
            .execute();
          await tx
            .insertInto("account_wallets")
            .values({ address: envelope.address, account_id: accountId })
            .execute();
        }
        const session = await insertSession(tx, {
          kind: "account",
          accountId,
          wallet: envelope.address,
          origin: envelope.origin,
          expiresAt: clock.now() + SESSION_LIFETIME_MS,
        });
        return { address: envelope.address, accountId, ...session };
      });
    },

    /** The live session a token names, or undefined (unknown, expired, revoked). */
    async authenticate(token: string): Promise<Session | undefined> {
      const hash = hashSecret(token);
      const now = clock.now();
      const cached = cache.get(hash);
      if (cached && cached.until > now) {
        return cached.session.expiresAt > now ? cached.session : undefined;
      }
      const row = await db.kysely
        .selectFrom("sessions")
        .select([
          "id",
          "kind",
          "account_id",
          "wallet",
          "origin",
          "invite_id",
          "created_at",
          "expires_at",
          "revoked_at",
        ])
        .where("token_hash", "=", hash)
        .executeTakeFirst();
      if (!row || row.revoked_at !== null || row.expires_at.getTime() <= now) return undefined;
      if (row.kind !== "access" && row.account_id === null) return undefined;
      const session: Session = {
        id: row.id,
        kind: row.kind,
        accountId: row.account_id,
        wallet: row.wallet,
        origin: row.origin,
        inviteId: row.invite_id,
        createdAt: row.created_at.getTime(),
        expiresAt: row.expires_at.getTime(),
      };
      remember(hash, session);
      return session;
    },

    async walletsOf(accountId: string): Promise<string[]> {
      const rows = await db.kysely
        .selectFrom("account_wallets")
        .select("address")
        .where("account_id", "=", accountId)
        .orderBy("linked_at")
        .execute();
      return rows.map((row) => row.address);
    },

    /** Signs one session out, with the chat sessions it issued. */
    async signOut(session: Session) {
      const revoked = await db.kysely
        .transaction()
        .execute(async (tx) => [
          ...(await revokeWhere(tx, "id", session.id, "signed-out")),
          ...(await revokeWhere(tx, "parent_id", session.id, "parent-signed-out")),
        ]);
      await announceRevoked([session.id, ...revoked]);
    },

    /** `POST /market/chat/session`: a chat session for the account session's wallet. */
    async issueChatSession(parent: Session) {
      return insertSession(db.kysely, {
        kind: "chat",
        accountId: parent.accountId,
        wallet: parent.wallet,
        origin: parent.origin,
        parentId: parent.id,
        expiresAt: Math.min(parent.expiresAt, clock.now() + CHAT_SESSION_LIFETIME_MS),
      });
    },

    /** `POST /market/access/session`: redeems one use of an invite code. */
    async openAccessSession(code: string) {
      return db.kysely.transaction().execute(async (tx) => {
        const invite = await tx
          .updateTable("invites")
          .set((eb) => ({ uses: eb("uses", "+", 1) }))
          .where("code_hash", "=", hashSecret(code))
          .where("revoked_at", "is", null)
          .whereRef("uses", "<", "max_uses")
          .returning(["id", "created_by"])
          .executeTakeFirst();
        if (!invite) throw new AppError("forbidden", "the invite code is unknown, revoked or used up");
        const invitedBy = invite.created_by
          ? ((
              await tx
                .selectFrom("accounts")
                .select("primary_address")
                .where("id", "=", invite.created_by)
                .executeTakeFirst()
            )?.primary_address ?? null)
          : null;
        const session = await insertSession(tx, {
          kind: "access",
          accountId: null,
          wallet: null,
          origin: null,
          inviteId: invite.id,
          expiresAt: clock.now() + ACCESS_SESSION_LIFETIME_MS,
        });
        return { ...session, invitedBy };
      });
    },

    /**
     * `POST /market/account/delete`: a fresh deletion signature by the
     * session's own wallet. Removes the account's hosted data (the foreign
     * keys cascade), signs out every device, and keeps the minimal records
     * market-api.md section 5 lists: revoked session hashes and a deletion
     * audit row without addresses.
     */
    async deleteAccount(session: Session, envelope: SignedEnvelopeValue, requestOrigin: string | undefined) {
      if (session.kind !== "account" || session.accountId === null) {
        throw forbidden("only an account session can delete an account");
      }
      if (envelope.address !== session.wallet) {
        throw forbidden("the deletion must be signed by the session's wallet");
      }
      await verifyEnvelope(envelope, requestOrigin, deletionMessage);
      const accountId = session.accountId;
      const result = await db.kysely.transaction().execute(async (tx) => {
        await consumeNonce(tx, envelope, "deletion");
        const wallets = await tx
          .selectFrom("account_wallets")
          .select("address")
          .where("account_id", "=", accountId)
          .execute();
        const revoked = await revokeWhere(tx, "account_id", accountId, "account-deleted");
        const sessionsRevoked = revoked.length;
        // Revocation records keep no personal data.
        await tx
          .updateTable("sessions")
          .set({ wallet: null, origin: null })
          .where("account_id", "=", accountId)
          .execute();
        await tx
          .insertInto("account_deletions")
          .values({
            account_id: accountId,
            wallet_hashes: wallets.map((wallet) => addressHash(wallet.address)),
            sessions_revoked: sessionsRevoked,
          })
          .execute();
        await tx.deleteFrom("accounts").where("id", "=", accountId).execute();
        return { deleted: true as const, accountId, sessionsRevoked, revoked };
      });
      await announceRevoked(result.revoked);
      return {
        deleted: result.deleted,
        accountId: result.accountId,
        sessionsRevoked: result.sessionsRevoked,
      };
    },

    /** Drops nonces whose signatures can no longer be replayed anyway. */
    async sweep() {
      await db.kysely.deleteFrom("used_nonces").where("expires_at", "<", new Date(clock.now())).execute();
    },

    /** Links another wallet to the session's account, proven by that wallet's own sign-in signature. */
    async linkWallet(session: Session, proof: SignedEnvelopeValue, requestOrigin: string | undefined) {
      if (session.accountId === null) throw forbidden("only an account session can link wallets");
      if (proof.origin !== session.origin) {
        throw forbidden("the wallet proof must be signed for the same origin as this session");
      }
      await verifyEnvelope(proof, requestOrigin, signInMessage);
      const accountId = session.accountId;
      return db.kysely.transaction().execute(async (tx) => {
        await consumeNonce(tx, proof, "wallet-link");
        const owner = await accountOfWallet(tx, proof.address);
        if (owner === accountId) return { address: proof.address, linked: true as const };
        if (owner !== undefined) {
          throw new AppError("conflict", "this wallet belongs to another account; delete that account first");
        }
        await tx
          .insertInto("account_wallets")
          .values({ address: proof.address, account_id: accountId })
          .execute();
        return { address: proof.address, linked: true as const };
      });
    },

    /** Removes a wallet from the account and signs out its sessions; the primary wallet stays. */
    async unlinkWallet(session: Session, address: string) {
      if (session.accountId === null) throw forbidden("only an account session can unlink wallets");
      const accountId = session.accountId;
      const result = await db.kysely.transaction().execute(async (tx) => {
        const account = await tx
          .selectFrom("accounts")
          .select("primary_address")
          .where("id", "=", accountId)
          .executeTakeFirstOrThrow();
        if (account.primary_address === address) {
          throw new AppError("conflict", "the account's primary wallet cannot be unlinked");
        }
        const removed = await tx
          .deleteFrom("account_wallets")
          .where("address", "=", address)
          .where("account_id", "=", accountId)
          .returning("address")
          .executeTakeFirst();
        if (!removed) throw new AppError("not_found", "this wallet is not linked to the account");
        const sessionsRevoked = await tx
          .updateTable("sessions")
          .set({ revoked_at: new Date(clock.now()), revoked_reason: "wallet-unlinked" })
          .where("account_id", "=", accountId)
          .where("wallet", "=", address)
          .where("revoked_at", "is", null)
          .returning("id")
          .execute();
        return { address, unlinked: true as const, revoked: sessionsRevoked.map((row) => row.id) };
      });
      await announceRevoked(result.revoked);
      return { address: result.address, unlinked: result.unlinked, sessionsRevoked: result.revoked.length };
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
