import { z } from "zod";
import { integerParam } from "../params/index.ts";
import { runtimeVersionSchema } from "./releases.ts";

/**
 * The Board: leaderboards of creators and
 * collectors built from the indexer's projection of the market runtimes'
 * claims. Chain quantities (packs, volume) are decimal strings.
 */

/** A board window: how far back from the time of the read a claim's block time may be. */
export const BOARD_WINDOWS = ["24h", "7d", "30d", "all"] as const;
export type BoardWindow = (typeof BOARD_WINDOWS)[number];

/** Milliseconds of each window; `all` has no lower bound. */
export const BOARD_WINDOW_MS: Record<BoardWindow, number | null> = {
  "24h": 86_400_000,
  "7d": 7 * 86_400_000,
  "30d": 30 * 86_400_000,
  all: null,
};

/** Rankings of the creators' board: packs claimed from their drops, volume paid, distinct holders. */
export const CREATOR_BOARD_SORTS = ["claims", "volume", "holders"] as const;
/** Rankings of the collectors' board: packs claimed, volume paid, distinct drops claimed from. */
export const COLLECTOR_BOARD_SORTS = ["claims", "volume", "drops"] as const;
export type CreatorBoardSort = (typeof CREATOR_BOARD_SORTS)[number];
export type CollectorBoardSort = (typeof COLLECTOR_BOARD_SORTS)[number];

export const BOARD_PAGING = { defaultLimit: 25, maxLimit: 100, maxOffset: 10_000 } as const;

const decimal = (what: string) =>
  z
    .string()
    .regex(/^(0|[1-9][0-9]*)$/)
    .describe(`${what}, a decimal string (uint256 arithmetic, never a JSON number).`);

const boardQueryFields = {
  window: z
    .enum(BOARD_WINDOWS)
    .default("7d")
    .describe(
      "Which claims count: those whose block time is at or after the read's time minus 24 hours, 7 days or 30 days; `all` counts every claim. Default `7d`.",
    ),
  version: runtimeVersionSchema
    .optional()
    .describe(
      "One runtime of `GET /market/runtime` (404 for any other); omitted, the board spans every runtime of the market.",
    ),
  limit: integerParam("limit", {
    min: 1,
    max: BOARD_PAGING.maxLimit,
    default: BOARD_PAGING.defaultLimit,
  }).describe(`Entries per page, 1 to ${BOARD_PAGING.maxLimit}; default ${BOARD_PAGING.defaultLimit}.`),
  offset: integerParam("offset", {
    min: 0,
    max: BOARD_PAGING.maxOffset,
    default: 0,
    rangeMessage: `offset is 0 to ${BOARD_PAGING.maxOffset}`,
  }).describe(`Entries to skip (0 to ${BOARD_PAGING.maxOffset}); the next page starts at \`next\`.`),
};

const TIES = "Ties: packs claimed, then volume, then the address, so the order is total.";

export const creatorBoardQuerySchema = z.object({
  ...boardQueryFields,
  sort: z
    .enum(CREATOR_BOARD_SORTS)
    .default("claims")
    .describe(
      `The ranking, highest first: \`claims\` (packs claimed from the creator's drops), \`volume\` (native currency paid for them) or \`holders\` (distinct wallets that claimed). ${TIES}`,
    ),
});

export const collectorBoardQuerySchema = z.object({
  ...boardQueryFields,
  sort: z
    .enum(COLLECTOR_BOARD_SORTS)
    .default("claims")
    .describe(
      `The ranking, highest first: \`claims\` (packs claimed), \`volume\` (native currency paid) or \`drops\` (distinct drops claimed from). ${TIES}`,
    ),
});

export type CreatorBoardQuery = Partial<z.input<typeof creatorBoardQuerySchema>>;
export type CollectorBoardQuery = Partial<z.input<typeof collectorBoardQuerySchema>>;

const entryFields = {
  rank: z.number().int().min(1).describe("1-based position in this board (offset + index + 1)."),
  address: z.string().describe("The wallet, lowercase."),
  claims: z.number().int().describe("Claim transactions (`Claimed` events) in the window."),
  packs: decimal("Packs claimed in the window (sum of the claims' quantities)"),
  volume: decimal("Native currency paid in the window, in wei (sum of the claims' `paid`; 0 for free drops)"),
  lastClaimAt: z.number().int().describe("Block time of the newest claim counted, Unix milliseconds."),
};

export const boardCreatorSchema = z
  .object({
    ...entryFields,
    holders: z
      .number()
      .int()
      .describe("Distinct wallets that claimed from the creator's drops in the window."),
    drops: z.number().int().describe("Drops of the creator claimed from in the window."),
  })
  .meta({ id: "BoardCreator" });

export const boardCollectorSchema = z
  .object({
    ...entryFields,
    drops: z.number().int().describe("Distinct drops the wallet claimed from in the window."),
    creators: z.number().int().describe("Distinct creators whose drops the wallet claimed from."),
  })
  .meta({ id: "BoardCollector" });

const boardPage = <T extends z.ZodType, S extends readonly [string, ...string[]]>(entry: T, sorts: S) => ({
  window: z.enum(BOARD_WINDOWS),
  sort: z.enum(sorts),
  from: z
    .number()
    .int()
    .nullable()
    .describe("Unix milliseconds: claims with a block time at or after it count; null for `all`."),
  to: z.number().int().describe("Unix milliseconds: the time of the read that built this board."),
  versions: z
    .array(z.string())
    .describe("The runtimes counted: the `version` asked for, or every runtime of the market."),
  entries: z.array(entry),
  next: z
    .number()
    .int()
    .nullable()
    .describe(
      `The \`offset\` of the next page; null when this page is the last or the next offset would pass ${BOARD_PAGING.maxOffset}.`,
    ),
});

const example = (kind: "creators" | "collectors") => ({
  window: "7d",
  sort: "claims",
  from: 1_790_000_000_000 - 7 * 86_400_000,
  to: 1_790_000_000_000,
  versions: ["r2", "r1"],
  entries: [
    {
      rank: 1,
      address: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
      claims: 4,
      packs: "9",
      volume: "900000000000000",
      lastClaimAt: 1_789_999_000_000,
      ...(kind === "creators" ? { holders: 3, drops: 2 } : { drops: 2, creators: 1 }),
    },
  ],
  next: null,
});

export const boardCreatorListSchema = z
  .object(boardPage(boardCreatorSchema, CREATOR_BOARD_SORTS))
  .meta({ id: "BoardCreatorList", examples: [example("creators")] });

export const boardCollectorListSchema = z
  .object(boardPage(boardCollectorSchema, COLLECTOR_BOARD_SORTS))
  .meta({ id: "BoardCollectorList", examples: [example("collectors")] });

export type BoardCreator = z.output<typeof boardCreatorSchema>;
export type BoardCollector = z.output<typeof boardCollectorSchema>;
export type BoardCreatorList = z.output<typeof boardCreatorListSchema>;
export type BoardCollectorList = z.output<typeof boardCollectorListSchema>;
