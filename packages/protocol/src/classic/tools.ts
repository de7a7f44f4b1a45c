import { z } from "zod";
import { integerParam } from "../params/index.ts";
import {
  addressString,
  classicPaginationSchema,
  classicQuery,
  isoDateTime,
  txHashString,
  weiString,
} from "./common.ts";
import { uint256Param } from "./packs.ts";
import { classicStatsSchema } from "./stats.ts";

/**
 * The Classic API's signed-in tools (docs/classic.md, Recovery and social tools):
 * event recovery, reactions, reports, metadata refreshes and the signed-in
 * account's statistics. Every write takes the API key and the bearer token
 * (a bearer never replaces the key); limits are counted in the database, so they hold across replicas.
 */

// ---------------------------------------------------------------- recovery

/** What a recovery call found, in `status`. */
export const CLASSIC_RECOVERY_STATUSES = ["applied", "already_indexed", "pending", "not_classic"] as const;
export type ClassicRecoveryStatus = (typeof CLASSIC_RECOVERY_STATUSES)[number];

/** `GET /classic/events/{txHash}` path. */
export const classicTxHashParamsSchema = z.object({
  txHash: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, "txHash must be a 0x-prefixed 32-byte hash")
    .transform((value) => value.toLowerCase())
    .describe("The transaction hash (0x and 64 hex digits; either case)."),
});

export const classicRecoveredEventSchema = z
  .object({
    type: z
      .string()
      .describe(
        "The Solidity event name (`DropCreated`, `BoosterDropsMinted`, `BoosterDropOpened`, `Transfer`, …).",
      ),
    contractAddress: addressString("The contract that emitted the log"),
    contractKind: z
      .string()
      .describe(
        "Which contract of the classic graph: `factory`, `drop` (a game's packs) or `token` (its tickets).",
      ),
    logIndex: z.number().int().min(0).describe("The log's index in its block."),
    applied: z
      .boolean()
      .describe(
        "Applied by this call (the projection lacked it); false when it was already recorded or is pending.",
      ),
  })
  .meta({ id: "ClassicRecoveredEvent" });
export type ClassicRecoveredEvent = z.infer<typeof classicRecoveredEventSchema>;

export const classicRecoverySchema = z
  .object({
    success: z.literal(true),
    receiptFound: z
      .literal(true)
      .describe("The chain has the transaction's receipt (otherwise the answer is 404)."),
    txHash: txHashString("The transaction"),
    chainId: z.number().int(),
    blockNumber: z.number().int().min(0).describe("The block that holds the transaction."),
    status: z
      .enum(CLASSIC_RECOVERY_STATUSES)
      .describe(
        "`applied`: logs the projection lacked were applied now; `already_indexed`: every classic log was already recorded, nothing changed; `pending`: the indexer has not reached the block yet and will apply it in order; `not_classic`: the transaction has no log of a classic contract (a reverted transaction has none).",
      ),
    applied: z.number().int().min(0).describe("Logs this call applied; 0 on every later call."),
    events: z
      .array(classicRecoveredEventSchema)
      .describe("The transaction's logs of classic contracts, in log order (at most the receipt's logs)."),
  })
  .meta({ id: "ClassicRecovery" });
export type ClassicRecovery = z.infer<typeof classicRecoverySchema>;

// ---------------------------------------------------------------- targets

/** A game (its drop) or one pack of it, on the classic chain. */
const targetFields = {
  chainId: integerParam("chainId", { min: 1, default: 8453 }).describe("Chain id; default 8453."),
  contractAddress: classicQuery.address("contractAddress").describe("The game's booster drop address."),
  tokenId: uint256Param("tokenId")
    .optional()
    .describe("A pack of the game (uint256, decimal digits); absent: the game itself."),
};

export const classicTargetSchema = z
  .object({
    chainId: z.number().int(),
    contractAddress: addressString("The game's booster drop"),
    tokenId: z
      .string()
      .nullable()
      .describe("The pack's token id as a decimal string; null when the target is the game."),
  })
  .meta({ id: "ClassicTarget" });
export type ClassicTarget = z.infer<typeof classicTargetSchema>;

// ---------------------------------------------------------------- reactions

/** The fixed set of reaction kinds: one of each per account per target. */
export const CLASSIC_REACTION_KINDS = ["like", "love", "fire", "laugh", "wow", "sad"] as const;
export type ClassicReactionKind = (typeof CLASSIC_REACTION_KINDS)[number];

/** `PUT /classic/reactions` body: set (`active: true`) or clear one kind. */
export const classicReactionRequestSchema = z.object({
  ...targetFields,
  kind: z
    .enum(CLASSIC_REACTION_KINDS, { error: `kind must be one of ${CLASSIC_REACTION_KINDS.join(", ")}` })
    .describe(`The reaction: ${CLASSIC_REACTION_KINDS.map((kind) => `\`${kind}\``).join(", ")}.`),
  active: z.boolean().describe("true sets the reaction, false clears it; repeating either changes nothing."),
});
export type ClassicReactionRequest = z.input<typeof classicReactionRequestSchema>;

/** `GET /classic/reactions` and `GET /classic/reactions/mine` query. */
export const classicReactionsQuerySchema = z.object(targetFields);
export type ClassicReactionsQuery = z.input<typeof classicReactionsQuerySchema>;

const reactionCounts = z
  .object(
    Object.fromEntries(CLASSIC_REACTION_KINDS.map((kind) => [kind, z.number().int().min(0)])) as Record<
      ClassicReactionKind,
      z.ZodNumber
    >,
  )
  .describe("Accounts per reaction kind; every kind is present (0 when nobody reacted so).");

export const classicReactionsSchema = z
  .object({
    success: z.literal(true),
    target: classicTargetSchema,
    counts: reactionCounts,
    total: z.number().int().min(0).describe("The sum of `counts`."),
    mine: z
      .array(z.enum(CLASSIC_REACTION_KINDS))
      .optional()
      .describe("The signed-in account's reactions on the target (bearer routes only), in the kinds' order."),
  })
  .meta({ id: "ClassicReactions" });
export type ClassicReactions = z.infer<typeof classicReactionsSchema>;

// ---------------------------------------------------------------- reports

export const CLASSIC_REPORT_REASONS = [
  "spam",
  "scam",
  "impersonation",
  "copyright",
  "nsfw",
  "offensive",
  "other",
] as const;
export type ClassicReportReason = (typeof CLASSIC_REPORT_REASONS)[number];
export const CLASSIC_REPORT_STATUSES = ["open", "resolved", "dismissed"] as const;
/** Characters of `details` at most. */
export const CLASSIC_REPORT_DETAILS_MAX = 1000;
/** Reports per account per rolling hour (docs/classic.md, Recovery and social tools). */
export const CLASSIC_REPORTS_PER_HOUR = 10;

/** `POST /classic/reports` body. */
export const classicReportRequestSchema = z.object({
  ...targetFields,
  reason: z
    .enum(CLASSIC_REPORT_REASONS, { error: `reason must be one of ${CLASSIC_REPORT_REASONS.join(", ")}` })
    .describe(`Why: ${CLASSIC_REPORT_REASONS.map((reason) => `\`${reason}\``).join(", ")}.`),
  details: z
    .string()
    .trim()
    .max(CLASSIC_REPORT_DETAILS_MAX, `details must be at most ${CLASSIC_REPORT_DETAILS_MAX} characters`)
    .optional()
    .describe(`Free text for the operators, at most ${CLASSIC_REPORT_DETAILS_MAX} characters.`),
});
export type ClassicReportRequest = z.input<typeof classicReportRequestSchema>;

export const classicReportRecordSchema = z
  .object({
    id: z.string().describe("The report's id (`rpt_…`)."),
    target: classicTargetSchema,
    reason: z.enum(CLASSIC_REPORT_REASONS),
    details: z.string().nullable(),
    status: z.enum(CLASSIC_REPORT_STATUSES),
    createdAt: isoDateTime("When it was filed."),
  })
  .meta({ id: "ClassicReportRecord" });
export type ClassicReportRecord = z.infer<typeof classicReportRecordSchema>;

export const classicReportSchema = z
  .object({
    success: z.literal(true),
    report: classicReportRecordSchema,
    remaining: z
      .number()
      .int()
      .min(0)
      .describe(`Reports this account may still file in the current hour (of ${CLASSIC_REPORTS_PER_HOUR}).`),
  })
  .meta({ id: "ClassicReport" });
export type ClassicReport = z.infer<typeof classicReportSchema>;

/** Operator listing (`GET /admin/classic/reports`). */
export const adminClassicReportsQuerySchema = z.object({
  status: z.enum(CLASSIC_REPORT_STATUSES).optional().describe("Only reports in this state; absent: all."),
  page: classicQuery.page,
  limit: classicQuery.limit(50, 100),
});
export const adminClassicReportSchema = classicReportRecordSchema.extend({
  accountId: z.string().nullable().describe("The reporting account; null once it was deleted."),
  reviewedAt: isoDateTime("When an operator closed it.").nullable(),
});
export const adminClassicReportsPageSchema = z.object({
  reports: z.array(adminClassicReportSchema),
  pagination: classicPaginationSchema,
});
export type AdminClassicReportsPage = z.infer<typeof adminClassicReportsPageSchema>;
export const adminClassicReportPatchSchema = z.object({ status: z.enum(["resolved", "dismissed"]) });
/** `PATCH /admin/classic/reports/{id}` answer: the report as closed. */
export const adminClassicReviewedReportSchema = z.object({ report: adminClassicReportSchema });
/** `PATCH /admin/classic/reports/{id}`. */
export const adminClassicReportParamsSchema = z.object({
  id: z.string().min(1).max(100).describe("The report's id (`rpt_…`)."),
});

// ---------------------------------------------------------------- refreshes

/** Seconds between two refreshes of one target, for everybody. */
export const CLASSIC_REFRESH_COOLDOWN_SECONDS = 60;
/** Refreshes per account per rolling hour (those answered inside a cooldown do not count). */
export const CLASSIC_REFRESHES_PER_HOUR = 30;

/** `POST /classic/refresh` body. */
export const classicRefreshRequestSchema = z.object(targetFields);
export type ClassicRefreshRequest = z.input<typeof classicRefreshRequestSchema>;

export const classicRefreshSchema = z
  .object({
    success: z.literal(true),
    target: classicTargetSchema,
    refreshed: z
      .boolean()
      .describe(
        "true: refreshed now; false: the target was refreshed less than the cooldown ago, nothing done.",
      ),
    refreshedAt: isoDateTime("The target's latest refresh (now when `refreshed`)."),
    cooldownUntil: isoDateTime("When the target may be refreshed again."),
    indexedThroughBlock: z
      .number()
      .int()
      .nullable()
      .describe(
        "The last block the classic indexer has applied, at the refresh; null without an indexer head.",
      ),
  })
  .meta({ id: "ClassicRefresh" });
export type ClassicRefresh = z.infer<typeof classicRefreshSchema>;

// ---------------------------------------------------------------- account statistics

/** `GET /classic/stats/me` query. */
export const classicAccountStatsQuerySchema = z.object({ chainId: classicQuery.chainId });

export const classicAccountStatsSchema = z
  .object({
    success: z.literal(true),
    account: z.object({ id: z.string(), wallets: z.array(addressString("A linked wallet")) }),
    mine: z.object({
      chainId: z.number().int(),
      packsHeld: z.number().int().min(0).describe("Unburned packs the linked wallets own now."),
      packsOpened: z.number().int().min(0).describe("Of those, the opened ones."),
      packsBurned: z.number().int().min(0).describe("Packs the linked wallets sold back."),
      spentWei: weiString("Mint price of every pack counted above (held or burned), in"),
      rewardsWei: weiString("Paid for the packs the linked wallets sold back, in"),
      gamesCreated: z.number().int().min(0).describe("Games whose creator is a linked wallet."),
      reactionsMade: z.number().int().min(0).describe("Reactions the account has set now, every chain."),
      reportsMade: z.number().int().min(0).describe("Reports the account filed, every chain."),
    }),
    platform: classicStatsSchema.shape.stats.describe("The platform totals of `GET /classic/stats`."),
  })
  .meta({ id: "ClassicAccountStats" });
export type ClassicAccountStats = z.infer<typeof classicAccountStatsSchema>;
