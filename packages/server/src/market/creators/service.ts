import type { Creator, CreatorDropList, CreatorReleaseList } from "@mkt/protocol";
import { sql } from "kysely";
import { z } from "zod";
import type { Database } from "../../db/index.ts";
import { notFound } from "../../errors.ts";
import type { ProfileReader } from "../../identity/index.ts";
import { accountOfWallet } from "../../identity/index.ts";
import type { CursorSigner } from "../../paging/index.ts";
import { cursorKind, type PageRequest, toPage } from "../../paging/index.ts";
import type { ReleaseService } from "../releases/index.ts";

/** Drops newest first: creation block, then runtime id, then drop id, all three in the cursor. */
const dropCursor = cursorKind(
  z.tuple([
    z.string().regex(/^(0|[1-9][0-9]{0,18})$/),
    z.string().min(1).max(200),
    z.string().regex(/^[1-9][0-9]{0,77}$/),
  ]),
);

interface DropRow {
  runtime_id: string;
  drop_id: string;
  creator: string;
  price: string;
  max_supply: string;
  claimed: string;
  created_block: string | number;
  release_id: string | null;
}

export interface CreatorService {
  /** A creator's card: profile, follow counts, releases and drops; 404 for a wallet with no account and no drop. */
  get(address: string): Promise<Creator>;
  /** One page of a creator's public releases (none for a wallet without an account). */
  releases(address: string, page: PageRequest): Promise<CreatorReleaseList>;
  /** One page of the drops a creator made in the market runtimes. */
  drops(address: string, page: PageRequest): Promise<CreatorDropList>;
}

/**
 * A creator's public page: the profile, follows and public releases of the
 * account holding a wallet, and the drops that wallet created in the market
 * runtimes. A wallet that no account holds and that created no drop is
 * unknown (404).
 */
export function createCreatorService({
  db,
  profiles,
  releases,
  scope,
  cursors,
}: {
  db: Database;
  profiles: ProfileReader;
  releases: ReleaseService;
  /** The indexer scope of the market's runtime registry (every market runtime's drops); none without a market chain. */
  scope: string | undefined;
  /** Signs the drop list's page cursors. */
  cursors: CursorSigner;
}): CreatorService {
  const k = db.kysely;
  const inScopes = () => (scope === undefined ? sql`FALSE` : sql`d.scope = ${scope}`);

  const countDrops = async (address: string) => {
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM market_drops d WHERE d.creator = ${address} AND ${inScopes()}`.execute(
      k,
    );
    return Number(rows[0]?.n ?? 0);
  };

  /** The creator's account, or undefined for a wallet with drops and no account; 404 when neither. */
  const known = async (address: string) => {
    const accountId = await accountOfWallet(k, address);
    const drops = await countDrops(address);
    if (accountId === undefined && drops === 0) {
      throw notFound(`no account holds ${address} and it created no drop in the market runtimes`);
    }
    return { accountId, drops };
  };

  /** Followers and followings of an account, as the follows table keeps them counted (migration 0031). */
  const followCounts = async (accountId: string) => {
    const row = await k
      .selectFrom("account_follow_counts")
      .select(["followers", "following"])
      .where("account_id", "=", accountId)
      .executeTakeFirst();
    return { followers: Number(row?.followers ?? 0), following: Number(row?.following ?? 0) };
  };

  return {
    async get(address: string): Promise<Creator> {
      const { accountId, drops } = await known(address);
      if (accountId === undefined) {
        return { address, profile: null, followers: 0, following: 0, releases: 0, drops };
      }
      return {
        address,
        profile: (await profiles.ofAccount(accountId)) ?? null,
        ...(await followCounts(accountId)),
        releases: await releases.countPublicOf(accountId),
        drops,
      };
    },

    async releases(address: string, page: PageRequest): Promise<CreatorReleaseList> {
      const { accountId } = await known(address);
      if (accountId === undefined) return { address, releases: [], next: null };
      return { address, ...(await releases.listPublicOf(accountId, page)) };
    },

    async drops(address: string, { cursor, limit }: PageRequest): Promise<CreatorDropList> {
      await known(address);
      const dropsCursor = dropCursor.for(cursors, "creator-drops", address);
      const after = cursor === undefined ? undefined : dropsCursor.decode(cursor);
      const keyset =
        after === undefined
          ? sql`TRUE`
          : sql`(d.created_block < ${after[0]}::bigint
              OR (d.created_block = ${after[0]}::bigint AND (d.runtime_id > ${after[1]}
                OR (d.runtime_id = ${after[1]} AND d.drop_id < ${after[2]}::numeric))))`;
      const { rows } = await sql<DropRow>`
        SELECT d.runtime_id, d.drop_id::text AS drop_id, d.creator, d.price::text AS price,
               d.max_supply::text AS max_supply, d.claimed::text AS claimed, d.created_block, r.id AS release_id
        FROM market_drops d
        LEFT JOIN releases r ON r.version = d.runtime_id AND r.drop_id = d.drop_id::text AND r.status <> 'draft'
        WHERE d.creator = ${address} AND ${inScopes()} AND ${keyset}
        ORDER BY d.created_block DESC, d.runtime_id ASC, d.drop_id DESC
        LIMIT ${limit + 1}`.execute(k);
      const { items, next } = toPage(
        rows,
        limit,
        (row) => ({
          version: row.runtime_id,
          dropId: row.drop_id,
          creator: row.creator,
          price: row.price,
          maxSupply: row.max_supply,
          claimed: row.claimed,
          createdBlock: Number(row.created_block),
          releaseId: row.release_id,
        }),
        dropsCursor,
        (row): [string, string, string] => [String(row.created_block), row.runtime_id, row.drop_id],
      );
      return { address, drops: items, next };
    },
  };
}
