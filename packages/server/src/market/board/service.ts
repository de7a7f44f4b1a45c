import {
  BOARD_PAGING,
  BOARD_WINDOW_MS,
  type BoardCollectorList,
  type BoardCreatorList,
  type BoardWindow,
  type CollectorBoardSort,
  type CreatorBoardSort,
} from "@mkt/protocol";
import { type RawBuilder, sql } from "kysely";
import type { Database } from "../../db/index.ts";
import { notFound } from "../../errors.ts";
import type { Clock } from "../../quotas/limiter.ts";

/** A market runtime as the board counts it: its id (`{version}`) and its chain. */
export interface BoardRuntime {
  id: string;
  chainId: number;
}

export interface BoardRequest<S> {
  window: BoardWindow;
  version?: string | undefined;
  sort: S;
  limit: number;
  offset: number;
}

interface Row {
  address: string;
  claims: number;
  packs: string;
  volume: string;
  third: number;
  fourth: number;
  last_claim_at: Date | string;
}

export interface BoardService {
  /** Creators ranked by the claims of their drops in the window. */
  creators(request: BoardRequest<CreatorBoardSort>): Promise<BoardCreatorList>;
  /** Collectors (claiming wallets) ranked by their claims in the window. */
  collectors(request: BoardRequest<CollectorBoardSort>): Promise<BoardCollectorList>;
}

/**
 * Leaderboards of the market's creators and collectors, aggregated from the
 * indexer's projection of claims (`market_claims`, joined with
 * `market_drops` for the creator) over a window of block times ending at the
 * time of the read. Amounts are summed in `numeric` and answered as decimal
 * strings; the order is total (the ranking, then packs, volume, address), so
 * offset paging over an unchanged projection shows every entry once.
 */
export function createBoardService({
  db,
  clock,
  runtimes,
}: {
  db: Database;
  clock: Clock;
  /** The runtime catalog: the market runtimes, newest first (`GET /market/runtime`'s order). */
  runtimes: { list(): Promise<readonly BoardRuntime[]> };
}): BoardService {
  const scopeOf = async (version: string | undefined): Promise<BoardRuntime[]> => {
    const listed = await runtimes.list();
    if (version === undefined) return [...listed];
    const runtime = listed.find((candidate) => candidate.id === version);
    if (!runtime)
      throw notFound(`runtime ${version} is not a runtime of the market (see GET /market/runtime)`);
    return [runtime];
  };

  async function board<S extends string>(
    request: BoardRequest<S>,
    query: (counted: BoardRuntime[], from: Date | null) => RawBuilder<Row>,
  ) {
    const counted = await scopeOf(request.version);
    const to = clock.now();
    const windowMs = BOARD_WINDOW_MS[request.window];
    const from = windowMs === null ? null : to - windowMs;
    const rows =
      counted.length === 0
        ? []
        : (
            await sql<Row>`${query(counted, from === null ? null : new Date(from))} LIMIT ${request.limit + 1} OFFSET ${request.offset}`.execute(
              db.kysely,
            )
          ).rows;
    const nextOffset = request.offset + request.limit;
    return {
      page: {
        window: request.window,
        sort: request.sort,
        from,
        to,
        versions: counted.map((runtime) => runtime.id),
        next: rows.length > request.limit && nextOffset <= BOARD_PAGING.maxOffset ? nextOffset : null,
      },
      rows: rows.slice(0, request.limit),
    };
  }

  const common = (row: Row, index: number, offset: number) => ({
    rank: offset + index + 1,
    address: row.address,
    claims: Number(row.claims),
    packs: String(row.packs),
    volume: String(row.volume),
    lastClaimAt: new Date(row.last_claim_at).getTime(),
  });

  const windowed = (from: Date | null) => (from === null ? sql`TRUE` : sql`c.block_time >= ${from}`);
  /** The claims of the counted runtimes: (chain id, runtime id) is a runtime's key. */
  const inRuntimes = (counted: BoardRuntime[]) =>
    sql`(${sql.join(
      counted.map((runtime) => sql`(c.chain_id = ${runtime.chainId} AND c.runtime_id = ${runtime.id})`),
      sql` OR `,
    )})`;
  /** A drop's key within the counted runtimes. */
  const dropKey = sql`c.chain_id::text || ':' || c.runtime_id || ':' || c.drop_id::text`;

  const CREATOR_ORDER: Record<CreatorBoardSort, RawBuilder<unknown>> = {
    claims: sql`sum(c.quantity)`,
    volume: sql`sum(c.paid)`,
    holders: sql`count(DISTINCT c.owner)`,
  };
  const COLLECTOR_ORDER: Record<CollectorBoardSort, RawBuilder<unknown>> = {
    claims: sql`sum(c.quantity)`,
    volume: sql`sum(c.paid)`,
    drops: sql`count(DISTINCT ${dropKey})`,
  };

  /**
   * The all-time boards read the summaries the market projection keeps
   * (migration 0031) instead of aggregating every claim: per drop for the
   * creators, per wallet for the collectors, each for one runtime or for
   * every runtime of the chain. The market's runtimes are all on one chain;
   * runtimes of several chains would fall back to the claims.
   */
  const allTime = (counted: BoardRuntime[], from: Date | null) =>
    from === null && new Set(counted.map((runtime) => runtime.chainId)).size === 1;
  const CREATOR_SUMMARY_ORDER: Record<CreatorBoardSort, RawBuilder<unknown>> = {
    claims: sql`sum(d.claimed)`,
    volume: sql`sum(d.volume)`,
    holders: sql`sum(h.first_holders)`,
  };
  const COLLECTOR_SUMMARY_ORDER: Record<CollectorBoardSort, RawBuilder<unknown>> = {
    claims: sql`s.packs`,
    volume: sql`s.volume`,
    drops: sql`s.drops`,
  };

  return {
    async creators(request: BoardRequest<CreatorBoardSort>): Promise<BoardCreatorList> {
      const { page, rows } = await board(request, (counted, from) =>
        allTime(counted, from)
          ? // A wallet's first claim from a creator is counted on one of the creator's drops: per runtime
            // (`creator_holders`), or over the chain's runtimes when the board spans them all (`chain_holders`).
            sql<Row>`
          SELECT d.creator AS address,
                 sum(d.claims)::int AS claims,
                 sum(d.claimed)::text AS packs,
                 sum(d.volume)::text AS volume,
                 sum(h.first_holders)::int AS third,
                 count(*)::int AS fourth,
                 max(d.last_claim_at) AS last_claim_at
          FROM market_drops d,
            LATERAL (SELECT ${request.version === undefined ? sql`d.chain_holders` : sql`d.creator_holders`} AS first_holders) h
          WHERE (${sql.join(
            counted.map((runtime) => sql`(d.chain_id = ${runtime.chainId} AND d.runtime_id = ${runtime.id})`),
            sql` OR `,
          )}) AND d.claims > 0
          GROUP BY d.creator
          ORDER BY ${CREATOR_SUMMARY_ORDER[request.sort]} DESC, sum(d.claimed) DESC, sum(d.volume) DESC, d.creator ASC`
          : sql<Row>`
          SELECT d.creator AS address,
                 count(*)::int AS claims,
                 sum(c.quantity)::text AS packs,
                 sum(c.paid)::text AS volume,
                 count(DISTINCT c.owner)::int AS third,
                 count(DISTINCT ${dropKey})::int AS fourth,
                 max(c.block_time) AS last_claim_at
          FROM market_claims c
          JOIN market_drops d ON d.chain_id = c.chain_id AND d.runtime_id = c.runtime_id AND d.drop_id = c.drop_id
          WHERE ${inRuntimes(counted)} AND ${windowed(from)}
          GROUP BY d.creator
          ORDER BY ${CREATOR_ORDER[request.sort]} DESC, sum(c.quantity) DESC, sum(c.paid) DESC, d.creator ASC`,
      );
      return {
        ...page,
        sort: request.sort,
        entries: rows.map((row, index) => ({
          ...common(row, index, request.offset),
          holders: Number(row.third),
          drops: Number(row.fourth),
        })),
      };
    },

    async collectors(request: BoardRequest<CollectorBoardSort>): Promise<BoardCollectorList> {
      const { page, rows } = await board(request, (counted, from) =>
        allTime(counted, from)
          ? sql<Row>`
          SELECT s.owner AS address,
                 s.claims::int AS claims,
                 s.packs::text AS packs,
                 s.volume::text AS volume,
                 s.drops AS third,
                 jsonb_array_length(s.creators) AS fourth,
                 s.last_claim_at
          FROM market_board_collectors s
          WHERE s.chain_id = ${counted[0]!.chainId}
            AND s.runtime_id = ${request.version === undefined ? "" : counted[0]!.id}
          ORDER BY ${COLLECTOR_SUMMARY_ORDER[request.sort]} DESC, s.packs DESC, s.volume DESC, s.owner ASC`
          : sql<Row>`
          SELECT c.owner AS address,
                 count(*)::int AS claims,
                 sum(c.quantity)::text AS packs,
                 sum(c.paid)::text AS volume,
                 count(DISTINCT ${dropKey})::int AS third,
                 count(DISTINCT d.creator)::int AS fourth,
                 max(c.block_time) AS last_claim_at
          FROM market_claims c
          LEFT JOIN market_drops d ON d.chain_id = c.chain_id AND d.runtime_id = c.runtime_id AND d.drop_id = c.drop_id
          WHERE ${inRuntimes(counted)} AND ${windowed(from)}
          GROUP BY c.owner
          ORDER BY ${COLLECTOR_ORDER[request.sort]} DESC, sum(c.quantity) DESC, sum(c.paid) DESC, c.owner ASC`,
      );
      return {
        ...page,
        sort: request.sort,
        entries: rows.map((row, index) => ({
          ...common(row, index, request.offset),
          drops: Number(row.third),
          creators: Number(row.fourth),
        })),
      };
    },
  };
}
