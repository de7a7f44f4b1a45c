import type { AnySessionKind } from "@mkt/protocol";
import type { ColumnType, Generated, Kysely, Transaction } from "kysely";

/**
 * Row types of every table, as the normalised drivers return them: int8 and
 * numeric come back as strings on both drivers, timestamptz as Date.
 */
export interface ApiKeysTable {
  id: string;
  hash: string;
  prefix: string;
  description: string;
  email: string;
  multiplier: number;
  revoked: Generated<boolean>;
  revoked_at: Date | null;
  /** Marked by the operator: the key uses the prediction feed while it is not public. */
  first_party: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface IdempotencyRecordsTable {
  scope: string;
  idempotency_key: string;
  fingerprint: string;
  state: "pending" | "done";
  status: number | null;
  headers: ColumnType<Record<string, string> | null, string | null, string | null>;
  body: string | null;
  created_at: Generated<Date>;
  expires_at: Date;
}

export interface MigrationsTable {
  id: string;
  checksum: string;
  applied_at: Generated<Date>;
}

type Created = Generated<Date>;

export interface AccountsTable {
  id: string;
  primary_address: string;
  username: string | null;
  bio: Generated<string>;
  dm_policy: Generated<"everyone" | "following" | "nobody">;
  referred_by: string | null;
  created_at: Created;
  updated_at: Created;
}

export interface AccountWalletsTable {
  address: string;
  account_id: string;
  linked_at: Created;
}

export interface UsedNoncesTable {
  nonce: string;
  purpose: string;
  used_at: Created;
  expires_at: Date;
}

export interface SessionsTable {
  id: string;
  token_hash: string;
  /** The market's kinds and the Classic API's bearer tokens (`classic`, migration 0021). */
  kind: AnySessionKind;
  account_id: string | null;
  wallet: string | null;
  origin: string | null;
  invite_id: string | null;
  parent_id: string | null;
  created_at: Created;
  expires_at: Date;
  revoked_at: Date | null;
  revoked_reason: string | null;
}

export interface AccountDeletionsTable {
  account_id: string;
  wallet_hashes: string[];
  sessions_revoked: number;
  deleted_at: Created;
}

export interface FollowsTable {
  follower_id: string;
  followee_id: string;
  created_at: Created;
}

/** Kept by a trigger on `follows` (migration 0031): never written by the services. */
export interface AccountFollowCountsTable {
  account_id: string;
  /** bigint: the driver answers a decimal string. */
  followers: string;
  following: string;
}

export interface BlocksTable {
  account_id: string;
  blocked_id: string;
  created_at: Created;
}

export interface RoomsTable {
  id: string;
  slug: string;
  title: string;
  description: Generated<string>;
  created_by: string | null;
  created_at: Created;
}

export interface RoomMessagesTable {
  /** bigserial: a string on both drivers. */
  id: Generated<string>;
  room_id: string;
  account_id: string;
  wallet: string;
  body: string;
  reply_to: string | null;
  created_at: Created;
}

export interface DmThreadsTable {
  id: string;
  account_a: string;
  account_b: string;
  last_message_id: Generated<string>;
  last_message_at: Created;
  seen_a: Generated<string>;
  seen_b: Generated<string>;
  /** Messages the other side sent after this side's seen mark. */
  unread_a: Generated<number>;
  unread_b: Generated<number>;
  created_at: Created;
}

export interface DmMessagesTable {
  id: Generated<string>;
  thread_id: string;
  sender_id: string;
  sender_wallet: string;
  body: string;
  created_at: Created;
}

export interface ReportsTable {
  id: string;
  reporter_id: string | null;
  subject_kind: string;
  subject_id: string;
  reason: string;
  details: Generated<string>;
  created_at: Created;
  expires_at: Date;
}

export interface WishlistsTable {
  account_id: string;
  release_id: string;
  created_at: Created;
  /** Orders wishes made within one millisecond (0015). */
  seq: ColumnType<string | number, never, never>;
}

export interface ImagesTable {
  id: string;
  account_id: string;
  purpose: "artwork" | "avatar" | "pixel-pfp";
  draft_id: string | null;
  content_type: string;
  bytes: Uint8Array;
  width: number | null;
  height: number | null;
  created_at: Created;
}

export interface ProfilePicturesTable {
  account_id: string;
  avatar_image_id: string | null;
  pfp_status: Generated<string>;
  pixel_image_id: string | null;
  pixel_status: Generated<string>;
  pixel_error: string | null;
  pixel_requested_at: Date | null;
  updated_at: Created;
  /** 0012_profile.sql: the pixel pfp job's grid size, claims and claim time. */
  pixel_size: number | null;
  pixel_attempts: Generated<number>;
  pixel_started_at: Date | null;
}

export interface SocialConnectionsTable {
  account_id: string;
  provider: "x";
  username: string;
  avatar_url: Generated<string>;
  verified: Generated<boolean>;
  verified_by: string | null;
  verified_at: Date | null;
  state_hash: string | null;
  created_at: Created;
  /** 0012_profile.sql: the pending OAuth connection's sealed PKCE verifier and state expiry. */
  oauth_verifier: string | null;
  state_expires_at: Date | null;
}

export interface InvitesTable {
  id: string;
  code_hash: string;
  created_by: string | null;
  max_uses: number;
  uses: Generated<number>;
  revoked_at: Date | null;
  created_at: Created;
}

export interface ReleasesTable {
  id: string;
  owner_id: string;
  status: "draft" | "announced" | "cancelled" | "live";
  revision: Generated<number>;
  /** The parsed draft (`ReleaseDraft`), as JSON text on insert and update. */
  draft: ColumnType<unknown, string, string>;
  /** Unix milliseconds; bigint columns come back as strings from pg. */
  launch_at: ColumnType<string | number | null, number | null, number | null>;
  version: string | null;
  drop_id: string | null;
  seq: ColumnType<string | number, never, never>;
  created_at: Created;
  updated_at: Created;
}

/** Offchain labels of a pack, per market runtime, pack (drop id) and holding wallet. */
export interface PackEditsTable {
  runtime_id: string;
  /** numeric: a decimal string on insert; pg answers a string. */
  pack_id: ColumnType<string, string, string>;
  owner: string;
  name: string | null;
  note: string | null;
  updated_at: Created;
}

/** One row per revision of a release, written with the action that made it (migration 0018). */
export interface ReleaseRevisionsTable {
  release_id: string;
  revision: number;
  action: "create" | "edit" | "announce" | "reschedule" | "cancel" | "link" | null;
  status: "draft" | "announced" | "cancelled" | "live";
  /** `ArtworkChanges`, as JSON text on insert. */
  changes: ColumnType<unknown, string, never>;
  /** `{image, design}` of the draft at this revision, as JSON text on insert. */
  artwork: ColumnType<unknown, string, never>;
  artwork_changed: boolean;
  updated_at: ColumnType<Date, Date, never>;
}

/** The prediction feed's operator switches, one row per chain (migration 0026). */
export interface PredictRuntimeTable {
  chain_id: number;
  enabled: boolean;
  public_enabled: boolean;
  updated_at: Date;
}

export interface DB {
  api_keys: ApiKeysTable;
  idempotency_records: IdempotencyRecordsTable;
  mkt_migrations: MigrationsTable;
  accounts: AccountsTable;
  account_wallets: AccountWalletsTable;
  used_nonces: UsedNoncesTable;
  sessions: SessionsTable;
  account_deletions: AccountDeletionsTable;
  follows: FollowsTable;
  account_follow_counts: AccountFollowCountsTable;
  blocks: BlocksTable;
  rooms: RoomsTable;
  room_messages: RoomMessagesTable;
  dm_threads: DmThreadsTable;
  dm_messages: DmMessagesTable;
  reports: ReportsTable;
  wishlists: WishlistsTable;
  images: ImagesTable;
  profile_pictures: ProfilePicturesTable;
  social_connections: SocialConnectionsTable;
  invites: InvitesTable;
  releases: ReleasesTable;
  pack_edits: PackEditsTable;
  release_revisions: ReleaseRevisionsTable;
  predict_runtime: PredictRuntimeTable;
}

/** The database handle or an open transaction: what a store function runs its queries on. */
export type Executor = Kysely<DB> | Transaction<DB>;
