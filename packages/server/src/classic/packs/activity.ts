import {
  CLASSIC_ERROR_CODES,
  type ClassicActivityEvent,
  type ClassicActivityType,
  type ClassicCollectionEvents,
  type ClassicCollectionEventsQuery,
  type ClassicRecent,
  type ClassicRecentQuery,
} from "@mkt/protocol";
import { sql } from "kysely";
import type { ContractEventName } from "viem";
import type { Database } from "../../db/index.ts";
import { notFound } from "../../errors.ts";
import type { classicDropAbi, classicFactoryAbi, classicTokenAbi } from "../../indexer/classic-projection.ts";
import type { StoredEvent } from "../../indexer/projection.ts";
import type { ClassicGameDirectory } from "../directory.ts";

const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

/** The logs that are activity, by the kind of contract that emits them. */
const DROP_EVENTS = [
  "BoosterDropsMinted",
  "RarityAssigned",
  "BoosterDropOpened",
  "BoosterDropSold",
  "Transfer",
  "ActiveChanged",
] as const satisfies readonly ContractEventName<typeof classicDropAbi>[];
const TOKEN_EVENTS = [
  "TokensPurchased",
  "TokensSold",
  "MarketGraduated",
] as const satisfies readonly ContractEventName<typeof classicTokenAbi>[];

/** A log that is activity: its event and arguments, typed from the ABI of the contract kind that emits it. */
type ActivityLog =
  | StoredEvent<typeof classicDropAbi, (typeof DROP_EVENTS)[number]>
  | StoredEvent<typeof classicTokenAbi, (typeof TOKEN_EVENTS)[number]>
  | StoredEvent<typeof classicFactoryAbi, "DropCreated">;

/** A `chain_events` row of activity, with the game it is activity of. */
type EventRow = {
  chain_id: number;
  block_number: string;
  log_index: number;
  block_time: Date;
  transaction_hash: string;
  address: string;
  drop_address: string;
} & ActivityLog;

/** What a log's record takes from other rows: a mint's or a sale's ETH, an open batch's packs. */
interface EventDetails {
  /** The ETH of the drop's own token trade in the log's transaction (a mint's payment, a sale's payout). */
  dropEth?: string;
  /** A `RarityAssigned` batch's packs and, when they all have it, their one rarity. */
  batch?: { tokenIds: string[]; rarity: number | null };
}

/** The objectId of a log position: block number (16 hex digits) and log index (8). */
export const objectIdOf = (blockNumber: bigint, logIndex: number) =>
  `${blockNumber.toString(16).padStart(16, "0")}${logIndex.toString(16).padStart(8, "0")}`;

function activityOf(row: EventRow, details: EventDetails = {}): ClassicActivityEvent | undefined {
  const blockNumber = BigInt(row.block_number);
  const base = {
    id: objectIdOf(blockNumber, row.log_index),
    chainId: row.chain_id,
    contractAddress: row.drop_address,
    address: row.address,
    blockNumber: Number(blockNumber),
    logIndex: row.log_index,
    txHash: row.transaction_hash,
    timestamp: row.block_time.toISOString(),
    tokenIds: [] as string[],
    actor: null as string | null,
    to: null as string | null,
    rarity: null as number | null,
    ethAmount: null as string | null,
    tokenAmount: null as string | null,
  };
  const event = (type: ClassicActivityType, fields: Partial<typeof base>): ClassicActivityEvent => ({
    ...base,
    type,
    ...fields,
  });
  switch (row.event) {
    case "DropCreated":
      return event("game_created", { actor: row.args.creator.toLowerCase() });
    case "BoosterDropsMinted": {
      const ids: string[] = [];
      const end = BigInt(row.args.endTokenId);
      for (let id = BigInt(row.args.startTokenId); id <= end && ids.length < 10_000; id++)
        ids.push(id.toString());
      // The ETH the drop paid its token for the packs; a mint with tokens (`mintWithToken`) paid none.
      return event("mint", {
        actor: row.args.minter.toLowerCase(),
        tokenIds: ids,
        ethAmount: details.dropEth ?? "0",
      });
    }
    case "RarityAssigned":
      // One log per open batch: its packs, and their rarity when they share one.
      return event("rarity_assigned", {
        tokenIds: details.batch?.tokenIds ?? [],
        rarity: details.batch?.rarity ?? null,
      });
    case "BoosterDropOpened":
      return event("open", { actor: row.args.from.toLowerCase(), tokenIds: [...row.args.tokenIds] });
    case "BoosterDropSold":
      return event("sell_back", {
        actor: row.args.burner.toLowerCase(),
        tokenIds: [row.args.tokenId],
        rarity: row.args.rarity,
        // The offer is in the drop's token; `sellForEth` also sold it for ETH in the same transaction.
        tokenAmount: row.args.offerAmount,
        ethAmount: details.dropEth ?? null,
      });
    case "Transfer":
      return event("transfer", {
        actor: row.args.from.toLowerCase(),
        to: row.args.to.toLowerCase(),
        tokenIds: [row.args.tokenId],
      });
    case "ActiveChanged":
      return event(row.args.active ? "resume" : "pause", {});
    case "TokensPurchased":
      return event("curve_purchase", {
        actor: row.args.buyer.toLowerCase(),
        ethAmount: row.args.ethPaid,
        tokenAmount: row.args.amount,
      });
    case "TokensSold": {
      // The live token declares two `TokensSold`: the trade's (seller, recipient, ETH) and a bare one.
      const { args } = row;
      const [actor, ethAmount] = "seller" in args ? [args.seller, args.ethReceived] : [args.from, null];
      return event("curve_sale", { actor: actor.toLowerCase(), ethAmount, tokenAmount: args.amount });
    }
    case "MarketGraduated":
      return event("graduation", {
        to: row.args.pool.toLowerCase(),
        ethAmount: row.args.ethAmount,
        tokenAmount: row.args.tokenAmount,
      });
    default:
      return undefined;
  }
}

/** A transfer from or to the zero address: a mint's or a burn's, told by `BoosterDropsMinted` and `BoosterDropSold`. */
const MINT_OR_BURN = sql`(e.event = 'Transfer' AND (lower(e.args->>'from') = ${ZERO_ADDRESS} OR lower(e.args->>'to') = ${ZERO_ADDRESS}))`;

/**
 * The drop's own token trades (`g` the game): an ETH mint's purchase and a `sellForEth` sale, told by
 * the mint's and the sale's records.
 */
const DROP_TRADE = sql`((e.event = 'TokensPurchased' AND lower(e.args->>'buyer') = g.drop_address)
  OR (e.event = 'TokensSold' AND lower(e.args->>'seller') = g.drop_address))`;

const EVENT_COLUMNS = sql`e.chain_id, e.block_number::text AS block_number, e.log_index, e.block_time,
  e.transaction_hash, e.address, e.event, e.args`;

/**
 * The game a `chain_events` row `e` is activity of, as `g.drop_address`: its
 * drop's lifecycle logs (transfers only between two holders), its token's
 * trades (not the drop's own), and the factory's `DropCreated` naming the drop. Each branch
 * is one lookup by key, so a walk over the log reads one game row per event.
 */
const GAME_OF_EVENT = sql`LATERAL (
  SELECT g.drop_address FROM classic_games g
  WHERE e.event IN (${sql.join(DROP_EVENTS)}) AND g.chain_id = e.chain_id AND g.drop_address = e.address
    AND NOT ${MINT_OR_BURN}
  UNION ALL
  SELECT g.drop_address FROM classic_games g
  WHERE e.event IN (${sql.join(TOKEN_EVENTS)}) AND g.chain_id = e.chain_id AND g.token_address = e.address
    AND NOT ${DROP_TRADE}
  UNION ALL
  SELECT g.drop_address FROM classic_games g
  WHERE e.event = 'DropCreated' AND g.chain_id = e.chain_id AND g.drop_address = lower(e.args->>'dropContract')
  LIMIT 1
) g`;

/**
 * The details of a page's records, in two queries: the drop's own token trades in the transactions of
 * its mints and sales, and the packs of its `RarityAssigned` batches.
 */
async function detailsOf(db: Database, rows: readonly EventRow[]): Promise<Map<string, EventDetails>> {
  const details = new Map<string, EventDetails>();
  const keyOf = (row: { block_number: string; log_index: number }) => `${row.block_number}:${row.log_index}`;
  const trades = rows.filter((row) => row.event === "BoosterDropsMinted" || row.event === "BoosterDropSold");
  if (trades.length > 0) {
    const found = await sql<{ transaction_hash: string; drop: string; event: string; eth: string }>`
      SELECT e.transaction_hash, g.drop_address AS drop, e.event,
             coalesce(e.args->>'ethPaid', e.args->>'ethReceived') AS eth
      FROM chain_events e
      JOIN classic_games g ON g.chain_id = e.chain_id AND g.token_address = e.address
      WHERE e.transaction_hash IN (${sql.join([...new Set(trades.map((row) => row.transaction_hash))])})
        AND ${DROP_TRADE}`.execute(db.kysely);
    for (const row of trades) {
      const wanted = row.event === "BoosterDropsMinted" ? "TokensPurchased" : "TokensSold";
      const trade = found.rows.find(
        (candidate) =>
          candidate.transaction_hash === row.transaction_hash &&
          candidate.drop === row.drop_address &&
          candidate.event === wanted,
      );
      if (trade) details.set(keyOf(row), { dropEth: trade.eth });
    }
  }
  const assigned = rows.filter(
    (row): row is Extract<EventRow, { event: "RarityAssigned" }> => row.event === "RarityAssigned",
  );
  for (const row of assigned) {
    const found = await sql<{ token_id: string; rarity: number }>`
      SELECT p.token_id::text AS token_id, p.rarity
      FROM classic_open_batches b
      CROSS JOIN LATERAL jsonb_array_elements_text(b.token_ids) AS t(token_id)
      JOIN classic_packs p ON p.chain_id = b.chain_id AND p.contract_address = b.drop_address
        AND p.token_id = t.token_id::numeric
      WHERE b.chain_id = ${row.chain_id} AND b.drop_address = ${row.address}
        AND b.batch_id = ${row.args.batchId}::numeric
      ORDER BY p.token_id`.execute(db.kysely);
    const rarities = new Set(found.rows.map((pack) => Number(pack.rarity)));
    details.set(keyOf(row), {
      batch: {
        tokenIds: found.rows.map((pack) => pack.token_id),
        rarity: rarities.size === 1 ? ([...rarities][0] ?? null) : null,
      },
    });
  }
  return details;
}

export interface ActivityReader {
  /**
   * One game's events, walked forward by log position
   * (`/collection/{contractAddress}/events`); 404 GAME_NOT_FOUND.
   */
  collection(addressOrSlug: string, query: ClassicCollectionEventsQuery): Promise<ClassicCollectionEvents>;
  /** Every game's events on the chain, newest first, walked backward by time (`/recent`). */
  recent(query: ClassicRecentQuery): Promise<ClassicRecent>;
}

/**
 * Activity of the classic games from `chain_events`: one game's, walked
 * forward by log position (`/collection/{contractAddress}/events`), and every
 * game's, walked backward by time (`/recent`).
 */
export function createActivityReader({
  db,
  directory,
}: {
  db: Database;
  directory: ClassicGameDirectory;
}): ActivityReader {
  return {
    async collection(
      addressOrSlug: string,
      query: ClassicCollectionEventsQuery,
    ): Promise<ClassicCollectionEvents> {
      const drop = await directory.resolve(query.chainId, addressOrSlug.toLowerCase());
      if (drop === undefined)
        throw notFound(`no game ${addressOrSlug} on this chain`, CLASSIC_ERROR_CODES.gameNotFound);
      const [afterBlock, afterLog] = query.cursor ? query.cursor.split(":") : ["-1", "0"];
      const after = sql`(${afterBlock}::bigint, ${Number(afterLog)}::integer)`;
      // The game's three sources, each walked forward in its own index (the drop's and the token's
      // logs by address, the one DropCreated at the game's creation block), merged by position. The
      // drop's own token trades are told by its mints and sales, as in /recent.
      const found = await sql<EventRow>`
        SELECT ${EVENT_COLUMNS}, g.drop_address
        FROM classic_games g
        CROSS JOIN LATERAL (
          (SELECT e.* FROM chain_events e
           WHERE e.address = g.drop_address AND e.chain_id = g.chain_id
             AND e.event IN (${sql.join(DROP_EVENTS)}) AND NOT ${MINT_OR_BURN}
             AND (e.block_number, e.log_index) > ${after}
           ORDER BY e.block_number, e.log_index LIMIT ${query.limit + 1})
          UNION ALL
          (SELECT e.* FROM chain_events e
           WHERE e.address = g.token_address AND e.chain_id = g.chain_id AND e.event IN (${sql.join(TOKEN_EVENTS)})
             AND NOT ${DROP_TRADE} AND (e.block_number, e.log_index) > ${after}
           ORDER BY e.block_number, e.log_index LIMIT ${query.limit + 1})
          UNION ALL
          (SELECT e.* FROM chain_events e
           WHERE e.scope = g.scope AND e.block_number = g.created_block AND e.chain_id = g.chain_id
             AND e.event = 'DropCreated' AND lower(e.args->>'dropContract') = g.drop_address
             -- The cursor compared through the game's creation block: a key lookup, never a range
             -- scan of the scope's log from the cursor on.
             AND (g.created_block, e.log_index) > ${after})
        ) e
        WHERE g.chain_id = ${query.chainId} AND g.drop_address = ${drop}
        ORDER BY e.block_number ASC, e.log_index ASC
        LIMIT ${query.limit + 1}`.execute(db.kysely);
      const page = found.rows.slice(0, query.limit);
      const details = await detailsOf(db, page);
      const events = page.flatMap(
        (row) => activityOf(row, details.get(`${row.block_number}:${row.log_index}`)) ?? [],
      );
      const last = page.at(-1);
      const head = await sql<{ head: string | null }>`
        SELECT (h.next_block - 1)::text AS head FROM indexer_heads h
        JOIN classic_games g ON g.scope = h.scope
        WHERE g.chain_id = ${query.chainId} AND g.drop_address = ${drop}`.execute(db.kysely);
      const headBlock = head.rows[0]?.head;
      return {
        success: true,
        events,
        nextCursor: last ? `${last.block_number}:${last.log_index}` : (query.cursor ?? null),
        hasMore: found.rows.length > query.limit,
        head:
          headBlock === undefined || headBlock === null || Number(headBlock) < 0 ? null : Number(headBlock),
      };
    },

    async recent(query: ClassicRecentQuery): Promise<ClassicRecent> {
      const before = query.cursor ? parseRecentCursor(query.cursor) : undefined;
      // Newest first down the time index; each event finds its game by key (GAME_OF_EVENT).
      const { rows } = await sql<EventRow>`
        SELECT ${EVENT_COLUMNS}, g.drop_address
        FROM chain_events e
        CROSS JOIN ${GAME_OF_EVENT}
        WHERE e.chain_id = ${query.chainId}
          ${
            before
              ? sql`AND (e.block_time, e.block_number, e.log_index) <
                  (${before.time}::timestamptz, ${before.block}::bigint, ${before.logIndex}::integer)`
              : sql``
          }
        ORDER BY e.block_time DESC, e.block_number DESC, e.log_index DESC
        LIMIT ${query.limit + 1}`.execute(db.kysely);
      const page = rows.slice(0, query.limit);
      const last = page.at(-1);
      const details = await detailsOf(db, page);
      return {
        success: true,
        events: page.flatMap(
          (row) => activityOf(row, details.get(`${row.block_number}:${row.log_index}`)) ?? [],
        ),
        nextCursor:
          rows.length > query.limit && last
            ? `${last.block_time.getTime()}-${objectIdOf(BigInt(last.block_number), last.log_index)}`
            : null,
      };
    },
  };
}

function parseRecentCursor(cursor: string) {
  const [ms, objectId] = cursor.split("-") as [string, string];
  return {
    time: new Date(Number(ms)).toISOString(),
    block: BigInt(`0x${objectId.slice(0, 16)}`).toString(),
    logIndex: Number.parseInt(objectId.slice(16), 16),
  };
}
