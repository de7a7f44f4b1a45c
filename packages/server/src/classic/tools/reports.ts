import {
  type AdminClassicReportsPage,
  CLASSIC_ERROR_CODES,
  CLASSIC_REPORTS_PER_HOUR,
  type ClassicReport,
  type ClassicReportReason,
  type ClassicReportRecord,
} from "@mkt/protocol";
import { sql } from "kysely";
import { type Database, isUniqueViolation } from "../../db/index.ts";
import { AppError, notFound } from "../../errors.ts";
import { newId } from "../../identity/index.ts";
import type { Clock } from "../../quotas/limiter.ts";
import { accountLimitReached } from "../account-limits.ts";
import { requireTarget, type TargetRequest, tokenKey } from "./targets.ts";

const HOUR_MS = 3_600_000;

interface ReportRow {
  id: string;
  chain_id: number;
  contract_address: string;
  token_id: string;
  account_id: string | null;
  reason: ClassicReportReason;
  details: string | null;
  status: "open" | "resolved" | "dismissed";
  created_at: Date;
  reviewed_at: Date | null;
  total?: string;
}

const recordOf = (row: ReportRow): ClassicReportRecord => ({
  id: row.id,
  target: {
    chainId: row.chain_id,
    contractAddress: row.contract_address,
    tokenId: row.token_id === "" ? null : row.token_id,
  },
  reason: row.reason,
  details: row.details,
  status: row.status,
  createdAt: new Date(row.created_at).toISOString(),
});

export const duplicateReport = () =>
  new AppError(
    "rate_limited",
    "you already reported this target and the report is still open; it counts once",
    { code: CLASSIC_ERROR_CODES.duplicateReport },
  );

export interface ClassicReportsService {
  /** Files the account's report of a game or a pack (one open report per target; 10 per hour). */
  file(
    accountId: string,
    target: TargetRequest,
    reason: ClassicReportReason,
    details: string | undefined,
  ): Promise<ClassicReport>;
  /** Reports filed by the account (every chain), for its statistics. */
  countBy(accountId: string): Promise<number>;
  /** Operator listing, newest first (`GET /admin/classic/reports`). */
  list(query: {
    status?: "open" | "resolved" | "dismissed" | undefined;
    page: number;
    limit: number;
  }): Promise<AdminClassicReportsPage>;
  /** An operator closes a report; the account may then report the target again. */
  review(id: string, status: "resolved" | "dismissed"): Promise<ClassicReportRecord>;
}

/**
 * Reports of games and packs (at most 10 per hour per account). Both
 * rules are read from the database inside one transaction that holds the
 * account's advisory lock, so they hold across replicas and concurrent
 * requests; the unique index on open reports backs the duplicate rule.
 */
export function createClassicReports({ db, clock }: { db: Database; clock: Clock }): ClassicReportsService {
  return {
    async file(
      accountId: string,
      target: TargetRequest,
      reason: ClassicReportReason,
      details: string | undefined,
    ): Promise<ClassicReport> {
      await requireTarget(db, target);
      const now = clock.now();
      const key = tokenKey(target);
      try {
        return await db.kysely.transaction().execute(async (tx) => {
          await sql`SELECT pg_advisory_xact_lock(hashtext(${`classic-reports:${accountId}`}))`.execute(tx);
          const open = await sql<{ id: string }>`
            SELECT id FROM classic_reports
            WHERE account_id = ${accountId} AND chain_id = ${target.chainId}
              AND contract_address = ${target.contractAddress} AND token_id = ${key} AND status = 'open'`.execute(
            tx,
          );
          if (open.rows.length > 0) throw duplicateReport();
          const recent = await sql<{ created_at: Date }>`
            SELECT created_at FROM classic_reports
            WHERE account_id = ${accountId} AND created_at > ${new Date(now - HOUR_MS).toISOString()}
            ORDER BY created_at ASC`.execute(tx);
          if (recent.rows.length >= CLASSIC_REPORTS_PER_HOUR) {
            throw accountLimitReached({
              message: `at most ${CLASSIC_REPORTS_PER_HOUR} reports per hour per account`,
              code: CLASSIC_ERROR_CODES.reportLimit,
              oldestMs: new Date(recent.rows[0]!.created_at).getTime(),
              windowMs: HOUR_MS,
              now,
            });
          }
          const inserted = await sql<ReportRow>`
            INSERT INTO classic_reports (id, chain_id, contract_address, token_id, account_id, reason, details, created_at)
            VALUES (${newId("rpt")}, ${target.chainId}, ${target.contractAddress}, ${key}, ${accountId}, ${reason},
                    ${details || null}, ${new Date(now).toISOString()})
            RETURNING *`.execute(tx);
          return {
            success: true as const,
            report: recordOf(inserted.rows[0]!),
            remaining: CLASSIC_REPORTS_PER_HOUR - recent.rows.length - 1,
          };
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicateReport();
        throw error;
      }
    },

    async countBy(accountId: string): Promise<number> {
      const { rows } = await sql<{ n: string }>`
        SELECT count(*) AS n FROM classic_reports WHERE account_id = ${accountId}`.execute(db.kysely);
      return Number(rows[0]?.n ?? 0);
    },

    async list(query: {
      status?: "open" | "resolved" | "dismissed" | undefined;
      page: number;
      limit: number;
    }): Promise<AdminClassicReportsPage> {
      const filter = query.status === undefined ? sql`` : sql`WHERE status = ${query.status}`;
      const { rows } = await sql<ReportRow>`
        SELECT *, count(*) OVER () AS total FROM classic_reports ${filter}
        ORDER BY created_at DESC, id DESC
        LIMIT ${query.limit} OFFSET ${(query.page - 1) * query.limit}`.execute(db.kysely);
      const total = rows[0]
        ? Number(rows[0].total)
        : Number(
            (await sql<{ n: string }>`SELECT count(*) AS n FROM classic_reports ${filter}`.execute(db.kysely))
              .rows[0]?.n ?? 0,
          );
      return {
        reports: rows.map((row) => ({
          ...recordOf(row),
          accountId: row.account_id,
          reviewedAt: row.reviewed_at === null ? null : new Date(row.reviewed_at).toISOString(),
        })),
        pagination: {
          page: query.page,
          limit: query.limit,
          total,
          totalPages: Math.ceil(total / query.limit),
        },
      };
    },

    async review(id: string, status: "resolved" | "dismissed"): Promise<ClassicReportRecord> {
      const { rows } = await sql<ReportRow>`
        UPDATE classic_reports SET status = ${status}, reviewed_at = ${new Date(clock.now()).toISOString()}
        WHERE id = ${id} RETURNING *`.execute(db.kysely);
      if (!rows[0]) throw notFound(`no report ${id}`);
      return recordOf(rows[0]);
    },
  };
}
