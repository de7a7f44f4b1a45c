import type { AdminKey, AdminKeyPatch, CreatedKey, CreateKeyRequest } from "@mkt/protocol";
import type { Database } from "../db/index.ts";
import { badRequest, notFound, UnavailableError, unauthorized } from "../errors.ts";
import type { CursorSigner } from "../paging/index.ts";
import type { Clock } from "../quotas/limiter.ts";
import { type CachedKey, cachedKey, createKeyCache } from "./cache.ts";
import { generateApiKey, hashSecret, isWellFormedApiKey, newKeyId } from "./secrets.ts";

export const KEYS_CHANNEL = "mkt_api_keys";

export interface KeyServiceOptions {
  db: Database;
  clock: Clock;
  /** Signs the operator key list's page cursors. */
  cursors: CursorSigner;
  positiveTtlMs?: number;
  negativeTtlMs?: number;
  maxCacheEntries?: number;
  onCacheFlush?: () => void;
}

export type KeyLookup = { status: "valid"; key: CachedKey } | { status: "malformed" } | { status: "unknown" };

interface KeyRow {
  id: string;
  prefix: string;
  description: string;
  email: string;
  multiplier: number;
  first_party: boolean;
  revoked: boolean;
  revoked_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const toAdminKey = (row: KeyRow): AdminKey => ({
  id: row.id,
  prefix: row.prefix,
  description: row.description,
  email: row.email,
  multiplier: row.multiplier,
  firstParty: row.first_party,
  revoked: row.revoked,
  revokedAt: row.revoked_at?.toISOString() ?? null,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

const adminColumns = [
  "id",
  "prefix",
  "description",
  "email",
  "multiplier",
  "first_party",
  "revoked",
  "revoked_at",
  "created_at",
  "updated_at",
] as const;

export interface KeyService {
  /** Subscribes to key changes from other replicas. */
  start(): Promise<void>;
  /** Stops listening for key changes. */
  stop(): Promise<void>;
  /** Creates a key: the secret is answered once and stored only as its hash. */
  create(input: CreateKeyRequest): Promise<CreatedKey>;
  /**
   * Resolves a presented key, synchronously when cached. Fails closed: a key fresh in the cache is
   * served while the database is down; one that must be looked up throws
   * UnavailableError.
   */
  authenticate(presented: string, connection?: object): KeyLookup | Promise<KeyLookup>;
  /**
   * The key a hash names now (`CachedKey.hash`), null once it is revoked or
   * gone: synchronously from the cache, else looked up and cached. Presented
   * keys are resolved with it, and open streams re-check their key with it.
   */
  current(hash: string): CachedKey | null | Promise<CachedKey | null>;
  /** One page of every key for the operator, oldest first, `next` the cursor of the following page (null on the last). */
  list(page: {
    limit: number;
    after?: string | undefined;
  }): Promise<{ keys: AdminKey[]; next: string | null }>;
  /** The operator changes a key's multiplier, first-party mark or revocation; every replica drops its cached copy. 404 for an unknown id. */
  update(id: string, patch: AdminKeyPatch): Promise<AdminKey>;
  /** The holder revokes the key it presents (the guard has authenticated it; a revoked key is refused there with 401). */
  revokeSelf(presented: string): Promise<{ id: string }>;
  /** How many key lookups this replica has cached. */
  cacheSize(): number;
}

/**
 * API keys: creation, lookup on the hot path, operator changes and
 * self-revocation. Lookups are served from a per-replica cache; every change
 * is announced on KEYS_CHANNEL so every replica drops its copy at once.
 */
export function createKeyService({
  db,
  clock,
  cursors,
  positiveTtlMs = 30_000,
  negativeTtlMs = 5_000,
  maxCacheEntries = 100_000,
  onCacheFlush,
}: KeyServiceOptions): KeyService {
  const cache = createKeyCache({ clock, positiveTtlMs, negativeTtlMs, maxEntries: maxCacheEntries });
  const hashes = createConnectionHashes();
  let unlisten: (() => Promise<void>) | undefined;

  const announce = async (hash: string) => {
    cache.delete(hash);
    // A failed notification is bounded by the cache TTL on other replicas.
    await db.notify(KEYS_CHANNEL, hash).catch(() => {});
  };

  const lookup = async (hash: string): Promise<CachedKey | null> => {
    try {
      const row = await db.kysely
        .selectFrom("api_keys")
        .select(["id", "multiplier", "revoked", "first_party"])
        .where("hash", "=", hash)
        .executeTakeFirst();
      return row && !row.revoked ? cachedKey(hash, row.id, row.multiplier, row.first_party) : null;
    } catch (error) {
      // Whatever broke, the key cannot be checked: fail closed.
      throw new UnavailableError("the API key lookup is unavailable; try again shortly", { cause: error });
    }
  };

  const current = (hash: string): CachedKey | null | Promise<CachedKey | null> => {
    const cached = cache.get(hash);
    if (cached !== undefined) return cached;
    return lookup(hash).then((key) => {
      cache.set(hash, key);
      return key;
    });
  };

  return {
    async start() {
      unlisten = await db.listen(KEYS_CHANNEL, {
        onNotify: (hash) => cache.delete(hash),
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

    async create(input: CreateKeyRequest): Promise<CreatedKey> {
      const key = generateApiKey();
      const hash = hashSecret(key);
      const row = await db.kysely
        .insertInto("api_keys")
        .values({
          id: newKeyId(),
          hash,
          prefix: key.slice(0, 12),
          description: input.description,
          email: input.email,
          multiplier: 1,
        })
        .returning(["id", "multiplier", "created_at"])
        .executeTakeFirstOrThrow();
      await announce(hash);
      return { id: row.id, key, multiplier: row.multiplier, createdAt: row.created_at.toISOString() };
    },

    authenticate(presented: string, connection?: object): KeyLookup | Promise<KeyLookup> {
      if (!isWellFormedApiKey(presented)) return { status: "malformed" };
      const hash = connection === undefined ? hashSecret(presented) : hashes.of(connection, presented);
      const key = current(hash);
      // Answered synchronously from the cache: the hot path takes no promise.
      return key instanceof Promise ? key.then(keyLookupOf) : keyLookupOf(key);
    },

    current,

    async list({ limit, after }: { limit: number; after?: string | undefined }) {
      let query = db.kysely
        .selectFrom("api_keys")
        .select(adminColumns)
        .orderBy("created_at")
        .orderBy("id")
        .limit(limit + 1);
      if (after) {
        const cursor = decodeCursor(cursors, after);
        query = query.where((eb) =>
          eb.or([
            eb("created_at", ">", cursor.createdAt),
            eb.and([eb("created_at", "=", cursor.createdAt), eb("id", ">", cursor.id)]),
          ]),
        );
      }
      const rows = await query.execute();
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        keys: page.map(toAdminKey),
        next:
          rows.length > limit && last
            ? cursors.sign(KEY_LIST, [last.created_at.toISOString(), last.id])
            : null,
      };
    },

    async update(id: string, patch: AdminKeyPatch): Promise<AdminKey> {
      const now = new Date(clock.now());
      const row = await db.kysely
        .updateTable("api_keys")
        .set({
          ...(patch.multiplier !== undefined ? { multiplier: patch.multiplier } : {}),
          ...(patch.firstParty !== undefined ? { first_party: patch.firstParty } : {}),
          ...(patch.revoked !== undefined
            ? { revoked: patch.revoked, revoked_at: patch.revoked ? now : null }
            : {}),
          updated_at: now,
        })
        .where("id", "=", id)
        .returning([...adminColumns, "hash"])
        .executeTakeFirst();
      if (!row) throw notFound(`no API key with id ${id}`);
      await announce(row.hash);
      return toAdminKey(row);
    },

    async revokeSelf(presented: string): Promise<{ id: string }> {
      if (!isWellFormedApiKey(presented)) throw unauthorized("API key missing, malformed or invalid");
      const hash = hashSecret(presented);
      const now = new Date(clock.now());
      const row = await db.kysely
        .updateTable("api_keys")
        .set((eb) => ({
          revoked: true,
          revoked_at: eb.fn.coalesce("revoked_at", eb.val(now)),
          updated_at: now,
        }))
        .where("hash", "=", hash)
        .returning(["id"])
        .executeTakeFirst();
      if (!row) throw unauthorized("API key missing, malformed or invalid");
      await announce(hash);
      return row;
    },

    cacheSize: () => cache.size(),
  };
}

/**
 * The hash of the key a connection last presented. A client sends the same
 * key request after request on a keep-alive connection, and SHA-256 of the
 * key was the largest cost of the check after the socket write; the hash is
 * recomputed whenever the presented key differs. The cache is still asked on
 * every request, so revocations take effect at once. The memo lives and dies
 * with the connection (a WeakMap keyed by the socket).
 */
function createConnectionHashes() {
  const memo = new WeakMap<object, { presented: string; hash: string }>();
  return {
    of(connection: object, presented: string): string {
      const last = memo.get(connection);
      if (last !== undefined && last.presented === presented) return last.hash;
      const hash = hashSecret(presented);
      memo.set(connection, { presented, hash });
      return hash;
    },
  };
}

const keyLookupOf = (key: CachedKey | null): KeyLookup =>
  key ? { status: "valid", key } : { status: "unknown" };

/** What the operator key list's cursors are signed for. */
const KEY_LIST = ["admin-keys"];

/** The position of a key-list cursor this server signed; 400 for anything else. */
function decodeCursor(cursors: CursorSigner, cursor: string): { createdAt: Date; id: string } {
  const position = cursors.open(KEY_LIST, cursor);
  if (Array.isArray(position) && position.length === 2) {
    const [createdAt, id] = position as unknown[];
    if (typeof createdAt === "string" && typeof id === "string" && !Number.isNaN(Date.parse(createdAt)))
      return { createdAt: new Date(createdAt), id };
  }
  throw badRequest("cursor is not a cursor this API returned");
}
