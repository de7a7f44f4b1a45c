import { type AnySessionKind, type SignedEnvelope, signInMessage } from "@mkt/protocol";
import type { Selectable } from "kysely";
import { type DB, type Executor, isUniqueViolation } from "../db/index.ts";
import { hashSecret } from "../keys/secrets.ts";
import { type AccountDeletion, createAccountDeletion } from "./deletion.ts";
import {
  createEnvelopeChecks,
  type EnvelopeCheckOptions,
  type EnvelopeChecks,
  type EnvelopeRequest,
  MAX_SIGNATURE_WINDOW_MS,
  nonceUsed,
} from "./envelopes.ts";
import { redeemInvite } from "./invite-codes.ts";
import { createSessionCache } from "./session-cache.ts";
import type { Session, SessionRevocations } from "./session-types.ts";
import { generateSessionToken, newId } from "./tokens.ts";
import { createWalletService, type WalletService } from "./wallets.ts";

export const SESSION_LIFETIME_MS = 30 * 24 * 3_600_000;
export const CHAT_SESSION_LIFETIME_MS = 24 * 3_600_000;
export const ACCESS_SESSION_LIFETIME_MS = 7 * 24 * 3_600_000;

export type { AccountServiceDeps, RevocationMatch, Session, SessionRevocations } from "./session-types.ts";

/** The envelope checks' options (the limiter counts failed signature verifications), and the cache's. */
export interface SessionServiceOptions extends EnvelopeCheckOptions {
  /** How long a replica trusts a cached live session without asking the database. */
  cacheTtlMs?: number;
  maxCacheEntries?: number;
  onCacheFlush?: () => void;
}

/**
 * The sign-in's writes as one statement ($1 nonce, $2 nonce kept until, $3
 * wallet, $4 id of a new account, $5 session id, $6 token hash, $7 origin,
 * $8 now, $9 session expiry): the nonce spent for `sign-in`, the wallet's
 * account or a new one holding it (as `accountForSignIn` does), and an account
 * session; it answers the session's account, or no row when the nonce was
 * already used (then nothing is written). The rows of sibling data-modifying
 * parts are visible to the foreign-key checks, which run at the statement's end.
 */
const SIGN_IN_STATEMENT = `
WITH nonce AS (
  INSERT INTO used_nonces (nonce, purpose, expires_at) VALUES ($1, 'sign-in', $2)
  ON CONFLICT (nonce) DO NOTHING
  RETURNING nonce
), existing AS (
  SELECT account_id FROM account_wallets WHERE address = $3
), opened AS (
  INSERT INTO accounts (id, primary_address, username, referred_by)
  SELECT $4, $3, NULL, NULL
  WHERE EXISTS (SELECT 1 FROM nonce) AND NOT EXISTS (SELECT 1 FROM existing)
  RETURNING id
), held AS (
  INSERT INTO account_wallets (address, account_id) SELECT $3, id FROM opened
  RETURNING account_id
), account AS (
  SELECT account_id FROM existing UNION ALL SELECT account_id FROM held
)
INSERT INTO sessions (id, token_hash, kind, account_id, wallet, origin, created_at, expires_at)
SELECT $5, $6, 'account', account.account_id, $3, $7, $8, $9 FROM account, nonce
RETURNING account_id`;

/** Revocations are announced here: every replica drops the named sessions from its cache. */
export const SESSIONS_CHANNEL = "mkt_sessions";

/** A session to issue: its kind, holder, origin and expiry (`SessionService.open`). */
export interface SessionOpening {
  kind: AnySessionKind;
  accountId: string | null;
  wallet: string | null;
  origin: string | null;
  /** The invite the session's sign-in redeemed. */
  inviteId?: string | null;
  /** The session this one was issued from (a chat session's account session): signing it out revokes this one. */
  parentId?: string | null;
  expiresAt: number;
}

export interface SessionService {
  /** Checks signed envelopes and consumes their nonces, for the surfaces that take signed requests. */
  envelopes: EnvelopeChecks;
  /** Links and unlinks the extra wallets of an account, each proven by its own signature. */
  wallets: WalletService;
  /** Deletes an account on its holder's signed request, revoking its sessions. */
  deletion: AccountDeletion;
  /** Subscribes to revocations from other replicas. */
  start(): Promise<void>;
  /** Stops listening for revocations. */
  stop(): Promise<void>;
  /**
   * Issues a session of any kind in the caller's transaction, for the
   * surfaces that sign in on this model (the Classic API's bearer tokens):
   * the token once, stored only as its hash.
   */
  open(tx: Executor, values: SessionOpening): Promise<{ id: string; token: string; expiresAt: number }>;
  /**
   * `POST /market/account/session`. After the signature verifies, one
   * statement spends the nonce, finds the wallet's account (or opens one
   * for a wallet no account holds, with the wallet as its primary) and
   * issues the session: atomic as a statement, one round trip instead of a
   * transaction of five. A nonce already used inserts nothing.
   */
  signIn(
    envelope: SignedEnvelope,
    request: EnvelopeRequest,
  ): Promise<{ address: string; accountId: string; id: string; token: string; expiresAt: number }>;
  /** The live session a token names, or undefined (unknown, expired, revoked). */
  authenticate(token: string): Promise<Session | undefined>;
  /**
   * Whether the session with this id is still live (not signed out, revoked
   * or expired, its account not deleted): synchronously from the cache, else
   * one query by id. Open streams re-check their session with it.
   */
  current(id: string): boolean | Promise<boolean>;
  /** Signs one session out, with the chat sessions it issued. */
  signOut(session: Pick<Session, "id">): Promise<void>;
  /** `POST /market/chat/session`: a chat session for the account session's wallet. */
  issueChatSession(parent: Session): Promise<{ id: string; token: string; expiresAt: number }>;
  /** `POST /market/access/session`: redeems one use of an invite code. */
  openAccessSession(
    code: string,
  ): Promise<{ invitedBy: string | null; id: string; token: string; expiresAt: number }>;
}

/**
 * Wallet sign-in and every session kind (account, chat, access), following
 * docs/market.md, Accounts, sessions and messages, and the account services that end
 * sessions: `wallets` (links, each proven by the wallet's own signature) and
 * `deletion`. A session is bound to the wallet that signed in and acts only
 * as that wallet. The Classic API's bearer tokens reuse this model.
 *
 * Tokens are 256-bit random values stored only as SHA-256 hashes. Revoked
 * rows stay (hash, kind, times, reason) so a token can never come back.
 * Revocations drop the cached session here at once and on every other replica
 * through NOTIFY; the cache TTL bounds staleness if a notification is lost,
 * and the cache is flushed when LISTEN reconnects. Unknown tokens are never
 * cached (nothing to gain, and budgets limit guessing).
 */
export function createSessionService({
  db,
  clock,
  verifier,
  allowedOrigins,
  limiter,
  failedVerifications,
  cacheTtlMs = 30_000,
  maxCacheEntries = 100_000,
  onCacheFlush,
}: SessionServiceOptions): SessionService {
  const envelopes = createEnvelopeChecks({
    db,
    clock,
    verifier,
    allowedOrigins,
    limiter,
    ...(failedVerifications ? { failedVerifications } : {}),
  });
  const cache = createSessionCache({ clock, ttlMs: cacheTtlMs, maxEntries: maxCacheEntries });
  let unlisten: (() => Promise<void>) | undefined;

  const revocations: SessionRevocations = {
    async revoke(tx, { id, parentId, accountId, wallet }, reason) {
      let query = tx
        .updateTable("sessions")
        .set({ revoked_at: new Date(clock.now()), revoked_reason: reason })
        .where("revoked_at", "is", null);
      if (id !== undefined) query = query.where("id", "=", id);
      if (parentId !== undefined) query = query.where("parent_id", "=", parentId);
      if (accountId !== undefined) query = query.where("account_id", "=", accountId);
      if (wallet !== undefined) query = query.where("wallet", "=", wallet);
      const revoked = await query.returning("id").execute();
      return revoked.map((row) => row.id);
    },
    async announce(ids) {
      if (ids.length === 0) return;
      cache.forget(ids);
      // A lost notification is bounded by the cache TTL on the other replicas.
      await db.notify(SESSIONS_CHANNEL, JSON.stringify(ids)).catch(() => {});
    },
  };

  const SESSION_COLUMNS = [
    "id",
    "token_hash",
    "kind",
    "account_id",
    "wallet",
    "origin",
    "invite_id",
    "created_at",
    "expires_at",
    "revoked_at",
  ] as const;

  /** The session a row holds while it is live (and now in the cache), else undefined. */
  const liveSession = (
    row: Pick<Selectable<DB["sessions"]>, (typeof SESSION_COLUMNS)[number]> | undefined,
    now: number,
  ): Session | undefined => {
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
    cache.remember(row.token_hash, session);
    return session;
  };

  const issue = async (tx: Executor, values: SessionOpening) => {
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

  return {
    envelopes,
    wallets: createWalletService({ db, envelopes, revocations }),
    deletion: createAccountDeletion({ db, envelopes, revocations }),

    async start() {
      unlisten = await db.listen(SESSIONS_CHANNEL, {
        onNotify: (payload) => {
          try {
            const ids = JSON.parse(payload) as unknown;
            if (Array.isArray(ids)) cache.forget(ids.filter((id): id is string => typeof id === "string"));
          } catch {
            cache.clear();
          }
        },
        onReconnect: () => {
          cache.clear();
          onCacheFlush?.();
        },
      });
    },
    async stop() {
      await unlisten?.();
      unlisten = undefined;
    },

    open: issue,

    async signIn(envelope: SignedEnvelope, request: EnvelopeRequest) {
      await envelopes.verify(envelope, request, signInMessage);
      const token = generateSessionToken("account");
      const id = newId("ses");
      const now = clock.now();
      const expiresAt = now + SESSION_LIFETIME_MS;
      const run = () =>
        db.withConnection((connection) =>
          connection.query<{ account_id: string }>(SIGN_IN_STATEMENT, [
            envelope.nonce,
            new Date(envelope.expires + MAX_SIGNATURE_WINDOW_MS),
            envelope.address,
            newId("acct"),
            id,
            hashSecret(token),
            envelope.origin,
            new Date(now),
            new Date(expiresAt),
          ]),
        );
      // The one unique key the statement can hit is the wallet's: a concurrent first request of
      // the same new wallet opened its account after this statement's snapshot. Nothing of the
      // failed statement was written (not even the nonce), and run again it finds that account.
      const { rows } = await run().catch((error: unknown) => {
        if (isUniqueViolation(error)) return run();
        throw error;
      });
      const accountId = rows[0]?.account_id;
      if (accountId === undefined) throw nonceUsed();
      return { address: envelope.address, accountId, id, token, expiresAt };
    },

    async authenticate(token: string): Promise<Session | undefined> {
      const hash = hashSecret(token);
      const now = clock.now();
      const cached = cache.get(hash);
      if (cached) return cached.expiresAt > now ? cached : undefined;
      const row = await db.kysely
        .selectFrom("sessions")
        .select(SESSION_COLUMNS)
        .where("token_hash", "=", hash)
        .executeTakeFirst();
      return liveSession(row, now);
    },

    current(id: string): boolean | Promise<boolean> {
      const now = clock.now();
      const cached = cache.byId(id);
      if (cached) return cached.expiresAt > now;
      return db.kysely
        .selectFrom("sessions")
        .select(SESSION_COLUMNS)
        .where("id", "=", id)
        .executeTakeFirst()
        .then((row) => liveSession(row, now) !== undefined);
    },

    async signOut(session: Pick<Session, "id">) {
      const revoked = await db.kysely
        .transaction()
        .execute(async (tx) => [
          ...(await revocations.revoke(tx, { id: session.id }, "signed-out")),
          ...(await revocations.revoke(tx, { parentId: session.id }, "parent-signed-out")),
        ]);
      await revocations.announce([session.id, ...revoked]);
    },

    async issueChatSession(parent: Session) {
      return issue(db.kysely, {
        kind: "chat",
        accountId: parent.accountId,
        wallet: parent.wallet,
        origin: parent.origin,
        parentId: parent.id,
        expiresAt: Math.min(parent.expiresAt, clock.now() + CHAT_SESSION_LIFETIME_MS),
      });
    },

    async openAccessSession(code: string) {
      return db.kysely.transaction().execute(async (tx) => {
        const invite = await redeemInvite(tx, code);
        const session = await issue(tx, {
          kind: "access",
          accountId: null,
          wallet: null,
          origin: null,
          inviteId: invite.inviteId,
          expiresAt: clock.now() + ACCESS_SESSION_LIFETIME_MS,
        });
        return { ...session, invitedBy: invite.invitedBy };
      });
    },
  };
}
