import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { type AccountActionResult, PROFILE_LIMITS } from "@mkt/protocol";
import { sql } from "kysely";
import type { Logger } from "pino";
import type { Database } from "../../db/index.ts";
import { isUniqueViolation } from "../../db/index.ts";
import { badRequest, conflict, forbidden, notFound } from "../../errors.ts";
import { hashSecret } from "../../keys/secrets.ts";
import type { Clock } from "../../quotas/limiter.ts";
import type { XAccountProvider } from "./x-provider.ts";

const base64url = (bytes: Buffer) => bytes.toString("base64url");

/**
 * The PKCE verifier of a pending connection, sealed (AES-256-GCM) with a key
 * derived from the OAuth state. Only the state's hash is stored, so a reader
 * of the database cannot redeem an intercepted code, and whoever sees the
 * state in a redirect URL cannot read the verifier.
 */
const sealKey = (state: string) => createHash("sha256").update(`mkt x-oauth verifier\0${state}`).digest();

export function sealVerifier(verifier: string, state: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", sealKey(state), iv);
  const sealed = Buffer.concat([cipher.update(verifier, "utf8"), cipher.final()]);
  return base64url(Buffer.concat([iv, cipher.getAuthTag(), sealed]));
}

export function unsealVerifier(sealed: string, state: string): string {
  const bytes = Buffer.from(sealed, "base64url");
  const decipher = createDecipheriv("aes-256-gcm", sealKey(state), bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
}

const takenElsewhere = () =>
  conflict("this X account is verified on another mkt account; it must be disconnected there first");

export interface XConnections {
  /** Whether an X OAuth provider is configured: `connect` then verifies through X, else it records an unverified claim. */
  oauth: boolean;
  /**
   * `x-connect`. With a provider: a fresh state and PKCE pair and the URL of
   * X's consent page (any current connection stays until the callback
   * completes). Without one: an unverified claim of `username`.
   */
  connect(accountId: string, username: string | undefined): Promise<AccountActionResult<"x-connect">>;
  /**
   * The OAuth callback: consumes the state (once, whatever happens next),
   * checks it was issued to this account and is fresh, redeems the code
   * with the sealed verifier and marks the connection verified.
   */
  complete(
    accountId: string,
    state: string,
    outcome: { code: string } | { error: string },
  ): Promise<{ xUsername: string; xAvatarUrl: string; xVerified: boolean }>;
  /** `POST /admin/social/x/verify`: the operator vouches that the wallet's account holds this X account. */
  verifyByOperator(
    address: string,
    username: string,
  ): Promise<{ accountId: string; xUsername: string; xVerified: boolean; verifiedBy: string }>;
  /** `x-disconnect`: removes the connection, verified or not, and any pending authorization. */
  disconnect(accountId: string): Promise<AccountActionResult<"x-disconnect">>;
}

/**
 * X account connections. An X connection is marked verified in exactly two
 * ways: an OAuth authorization completed by the same account session that
 * started it (`verified_by` 'oauth'), or the operator (`verified_by`
 * 'operator'). Without a provider, `x-connect` records an unverified claim.
 * A verified X username belongs to at most one account (unique index).
 */
export function createXConnections({
  db,
  clock,
  logger,
  provider,
}: {
  db: Database;
  clock: Clock;
  logger: Logger;
  provider: XAccountProvider | undefined;
}): XConnections {
  const now = () => new Date(clock.now());

  const current = (accountId: string) =>
    db.kysely
      .selectFrom("social_connections")
      .select(["username", "verified"])
      .where("account_id", "=", accountId)
      .where("provider", "=", "x")
      .executeTakeFirst();

  return {
    oauth: provider !== undefined,

    async connect(accountId: string, username: string | undefined) {
      if (provider) {
        const state = base64url(randomBytes(32));
        const verifier = base64url(randomBytes(32));
        const challenge = base64url(createHash("sha256").update(verifier).digest());
        const expiresAt = clock.now() + PROFILE_LIMITS.oauthStateMs;
        const pending = {
          state_hash: hashSecret(state),
          oauth_verifier: sealVerifier(verifier, state),
          state_expires_at: new Date(expiresAt),
        };
        await db.kysely
          .insertInto("social_connections")
          .values({ account_id: accountId, provider: "x", username: "", created_at: now(), ...pending })
          .onConflict((oc) => oc.columns(["account_id", "provider"]).doUpdateSet(pending))
          .execute();
        return { mode: "oauth" as const, authorizeUrl: provider.authorizeUrl(state, challenge), expiresAt };
      }
      if (username === undefined) {
        throw badRequest("username is required: X OAuth is not configured, so x-connect records a claim");
      }
      const existing = await current(accountId);
      if (existing?.verified) {
        if (existing.username.toLowerCase() === username.toLowerCase()) {
          return { mode: "claim" as const, xUsername: existing.username, xVerified: true };
        }
        throw conflict("a verified X account is connected; x-disconnect it before claiming another");
      }
      const claim = {
        username,
        avatar_url: "",
        verified: false,
        verified_by: null,
        verified_at: null,
        state_hash: null,
        oauth_verifier: null,
        state_expires_at: null,
      };
      await db.kysely
        .insertInto("social_connections")
        .values({ account_id: accountId, provider: "x", created_at: now(), ...claim })
        .onConflict((oc) => oc.columns(["account_id", "provider"]).doUpdateSet(claim))
        .execute();
      return { mode: "claim" as const, xUsername: username, xVerified: false };
    },

    async complete(accountId: string, state: string, outcome: { code: string } | { error: string }) {
      if (!provider) throw notFound("X OAuth is not configured on this server");
      const pending = await db.kysely.transaction().execute(async (tx) => {
        const row = await tx
          .selectFrom("social_connections")
          .select(["account_id", "oauth_verifier", "state_expires_at"])
          .where("state_hash", "=", hashSecret(state))
          .where("provider", "=", "x")
          .forUpdate()
          .executeTakeFirst();
        if (row) {
          await tx
            .updateTable("social_connections")
            .set({ state_hash: null, oauth_verifier: null, state_expires_at: null })
            .where("account_id", "=", row.account_id)
            .where("provider", "=", "x")
            .execute();
        }
        return row;
      });
      if (!pending?.oauth_verifier || !pending.state_expires_at) {
        throw badRequest("the OAuth state is unknown or already used; start again with x-connect");
      }
      if (pending.account_id !== accountId) {
        // Someone else's consent link: completing it would connect their X account to this one.
        logger.warn({ msg: "x oauth state presented by another account", accountId });
        throw forbidden("this X authorization was started by another account");
      }
      if (pending.state_expires_at.getTime() <= clock.now()) {
        throw badRequest("the OAuth state has expired; start again with x-connect");
      }
      if ("error" in outcome) throw badRequest(`X did not authorize the connection: ${outcome.error}`);
      const account = await provider.complete(outcome.code, unsealVerifier(pending.oauth_verifier, state));
      const verified = {
        username: account.username,
        avatar_url: account.avatarUrl,
        verified: true,
        verified_by: "oauth",
        verified_at: now(),
      };
      try {
        await db.kysely
          .insertInto("social_connections")
          .values({ account_id: accountId, provider: "x", created_at: now(), ...verified })
          .onConflict((oc) => oc.columns(["account_id", "provider"]).doUpdateSet(verified))
          .execute();
      } catch (error) {
        if (isUniqueViolation(error)) throw takenElsewhere();
        throw error;
      }
      logger.info({ msg: "x account verified", accountId, by: "oauth" });
      return { xUsername: account.username, xAvatarUrl: account.avatarUrl, xVerified: true };
    },

    async verifyByOperator(address: string, username: string) {
      const wallet = await db.kysely
        .selectFrom("account_wallets")
        .select("account_id")
        .where("address", "=", address.toLowerCase())
        .executeTakeFirst();
      if (!wallet) throw notFound("no account holds this wallet");
      const verified = {
        username,
        verified: true,
        verified_by: "operator",
        verified_at: now(),
      };
      try {
        await db.kysely
          .insertInto("social_connections")
          .values({ account_id: wallet.account_id, provider: "x", created_at: now(), ...verified })
          .onConflict((oc) =>
            oc.columns(["account_id", "provider"]).doUpdateSet((eb) => ({
              ...verified,
              // The X avatar came with an OAuth connection of the same account; keep it only for that name.
              avatar_url: sql<string>`CASE WHEN lower(${eb.ref("social_connections.username")}) = ${username.toLowerCase()} THEN ${eb.ref("social_connections.avatar_url")} ELSE '' END`,
            })),
          )
          .execute();
      } catch (error) {
        if (isUniqueViolation(error)) throw takenElsewhere();
        throw error;
      }
      logger.info({ msg: "x account verified", accountId: wallet.account_id, by: "operator" });
      return { accountId: wallet.account_id, xUsername: username, xVerified: true, verifiedBy: "operator" };
    },

    async disconnect(accountId: string) {
      const removed = await db.kysely
        .deleteFrom("social_connections")
        .where("account_id", "=", accountId)
        .where("provider", "=", "x")
        .returning("account_id")
        .executeTakeFirst();
      return { disconnected: removed !== undefined };
    },
  };
}
