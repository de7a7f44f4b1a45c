import {
  CLASSIC_ERROR_CODES,
  type ClassicAccountStats,
  type ClassicReactionKind,
  type ClassicReactions,
  type ClassicRecovery,
  type ClassicRefresh as ClassicRefreshBody,
  type ClassicReport,
  type ClassicReportReason,
  classicAccountStatsSchema,
  classicReactionsSchema,
  classicRecoverySchema,
  classicRefreshSchema,
  classicReportSchema,
} from "@mkt/protocol";
import { bearerHeaders, type ClassicCredential, epochMs } from "./classic-auth.ts";
import type { RequestOptions, Transport } from "./http.ts";

/** A game (its booster drop address) or one pack of it; the classic chain (8453) by default. */
export interface ClassicTargetInput {
  contractAddress: string;
  tokenId?: bigint | string;
  chainId?: number;
}

const targetBody = ({ contractAddress, tokenId, chainId }: ClassicTargetInput) => ({
  contractAddress,
  ...(tokenId === undefined ? {} : { tokenId: tokenId.toString() }),
  ...(chainId === undefined ? {} : { chainId }),
});

/**
 * A refresh's answer, its times in Unix epoch milliseconds like every expiry
 * the SDK returns (the classic wire's ISO 8601 strings, converted).
 */
export type ClassicRefresh = Omit<ClassicRefreshBody, "refreshedAt" | "cooldownUntil"> & {
  /** The target's latest refresh (now when `refreshed`), Unix epoch milliseconds. */
  refreshedAt: number;
  /** When the target may be refreshed again, Unix epoch milliseconds. */
  cooldownUntil: number;
};

/** Service limits whose 429 is an answer, not a reason to back off and retry. */
const FINAL_CODES = [
  CLASSIC_ERROR_CODES.duplicateReport,
  CLASSIC_ERROR_CODES.reportLimit,
  CLASSIC_ERROR_CODES.refreshLimit,
];

export interface ClassicToolsApi {
  /**
   * Recovery (`GET /classic/events/{txHash}`): re-applies the classic logs
   * of a transaction the indexer missed; a second call applies nothing.
   * Branch on `status` (`applied`, `already_indexed`, `pending`, `not_classic`).
   *
   * @example
   * ```ts
   * const { status, applied } = await client.classic.tools.recover(txHash);
   * ```
   */
  recover(txHash: string): Promise<ClassicRecovery>;
  /**
   * Sets (`active: true`) or clears one reaction (`PUT /classic/reactions`); idempotent.
   *
   * @example
   * ```ts
   * const { counts, mine } = await client.classic.tools.react({ contractAddress: drop }, "fire", true);
   * ```
   */
  react(target: ClassicTargetInput, kind: ClassicReactionKind, active: boolean): Promise<ClassicReactions>;
  /**
   * Reaction counts of a game or pack (`GET /classic/reactions`, API key only).
   *
   * @example
   * ```ts
   * const { counts } = await client.classic.tools.reactions({ contractAddress: drop, tokenId: 7n });
   * ```
   */
  reactions(target: ClassicTargetInput): Promise<ClassicReactions>;
  /** The counts and the signed-in account's own kinds (`GET /classic/reactions/mine`). */
  myReactions(target: ClassicTargetInput): Promise<ClassicReactions>;
  /**
   * Reports a game or pack (`POST /classic/reports`): 10 per hour per account;
   * a second open report of the same target is a 429 `DUPLICATE_REPORT`
   * (never retried by the client).
   *
   * @example
   * ```ts
   * await client.classic.tools.report({ contractAddress: drop }, "scam", "copies another artist's cards");
   * ```
   */
  report(target: ClassicTargetInput, reason: ClassicReportReason, details?: string): Promise<ClassicReport>;
  /**
   * Refreshes a game's or pack's metadata on every replica (`POST /classic/refresh`).
   * Inside the target's cooldown: `refreshed: false` and `cooldownUntil`
   * (Unix epoch milliseconds).
   *
   * @example
   * ```ts
   * const { refreshed, cooldownUntil } = await client.classic.tools.refresh({ contractAddress: drop });
   * if (!refreshed) console.log(`again in ${Math.ceil((cooldownUntil - Date.now()) / 1000)} s`);
   * ```
   */
  refresh(target: ClassicTargetInput): Promise<ClassicRefresh>;
  /**
   * The signed-in account's figures beside the platform's (`GET /classic/stats/me`).
   *
   * @example
   * ```ts
   * const { mine, platform } = await client.classic.tools.myStats();
   * ```
   */
  myStats(options?: { chainId?: number }): Promise<ClassicAccountStats>;
}

/**
 * The Classic API's signed-in tools: event recovery, reactions, reports,
 * refreshes and the account's statistics. Every call but `reactions` needs
 * `client.classic.auth.signIn` first (API key and bearer). Refusals throw
 * `MktApiError`: branch on `status` and `code` (`TRANSACTION_NOT_FOUND`,
 * `DUPLICATE_REPORT`, `REPORT_LIMIT`, `REFRESH_LIMIT`, `UNAUTHORIZED`, …).
 */
export function classicToolsApi(request: Transport, credential: ClassicCredential): ClassicToolsApi {
  const call = async <T>(
    options: Omit<RequestOptions, "headers">,
    schema: { parse(input: unknown): T },
  ): Promise<T> => {
    const { body } = await request<unknown>({ ...options, headers: bearerHeaders(credential) });
    return schema.parse(body);
  };
  const query = (target: ClassicTargetInput) => targetBody(target) as Record<string, string | number>;

  return {
    recover: (txHash: string): Promise<ClassicRecovery> =>
      call({ method: "GET", path: `/classic/events/${encodeURIComponent(txHash)}` }, classicRecoverySchema),

    react: (
      target: ClassicTargetInput,
      kind: ClassicReactionKind,
      active: boolean,
    ): Promise<ClassicReactions> =>
      call(
        { method: "PUT", path: "/classic/reactions", body: { ...targetBody(target), kind, active } },
        classicReactionsSchema,
      ),

    reactions: async (target: ClassicTargetInput): Promise<ClassicReactions> => {
      const { body } = await request<unknown>({
        method: "GET",
        path: "/classic/reactions",
        query: query(target),
      });
      return classicReactionsSchema.parse(body);
    },

    myReactions: (target: ClassicTargetInput): Promise<ClassicReactions> =>
      call({ method: "GET", path: "/classic/reactions/mine", query: query(target) }, classicReactionsSchema),

    report: (
      target: ClassicTargetInput,
      reason: ClassicReportReason,
      details?: string,
    ): Promise<ClassicReport> =>
      call(
        {
          method: "POST",
          path: "/classic/reports",
          body: { ...targetBody(target), reason, ...(details === undefined ? {} : { details }) },
          finalCodes: FINAL_CODES,
        },
        classicReportSchema,
      ),

    refresh: async (target: ClassicTargetInput): Promise<ClassicRefresh> => {
      const answer = await call(
        { method: "POST", path: "/classic/refresh", body: targetBody(target), finalCodes: FINAL_CODES },
        classicRefreshSchema,
      );
      return {
        ...answer,
        refreshedAt: epochMs(answer.refreshedAt),
        cooldownUntil: epochMs(answer.cooldownUntil),
      };
    },

    myStats: (options: { chainId?: number } = {}): Promise<ClassicAccountStats> =>
      call(
        { method: "GET", path: "/classic/stats/me", query: options.chainId === undefined ? {} : options },
        classicAccountStatsSchema,
      ),
  };
}
