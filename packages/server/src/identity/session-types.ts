import type { AnySessionKind } from "@mkt/protocol";
import type { Database, Executor } from "../db/index.ts";
import type { EnvelopeChecks } from "./envelopes.ts";

/** An authenticated session, as routes see it. */
export interface Session {
  id: string;
  kind: AnySessionKind;
  accountId: string | null;
  /** The wallet it acts as (account and chat sessions). */
  wallet: string | null;
  /** The signed origin (account and chat sessions). */
  origin: string | null;
  inviteId: string | null;
  createdAt: number;
  expiresAt: number;
}

/** Which live sessions a revocation ends: every condition given must hold. */
export interface RevocationMatch {
  id?: string;
  parentId?: string;
  accountId?: string;
  wallet?: string;
}

/** How the account areas that end sessions (sign-out, wallet unlink, deletion) do it. */
export interface SessionRevocations {
  /** Revokes the matching live sessions in the caller's transaction; answers their ids. */
  revoke(tx: Executor, match: RevocationMatch, reason: string): Promise<string[]>;
  /** After the commit: drops them from this replica's cache and tells the other replicas. */
  announce(ids: readonly string[]): Promise<void>;
}

/** What the account services that verify envelopes and end sessions (wallets, deletion) are built from. */
export interface AccountServiceDeps {
  db: Database;
  envelopes: EnvelopeChecks;
  revocations: SessionRevocations;
}
