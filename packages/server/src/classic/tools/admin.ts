import {
  adminClassicReportParamsSchema,
  adminClassicReportPatchSchema,
  adminClassicReportsPageSchema,
  adminClassicReportsQuerySchema,
  adminClassicReviewedReportSchema,
} from "@mkt/protocol";
import { OPERATOR_TAG } from "../../http/operator-routes.ts";
import { defineRoute, type RouteSpec } from "../../http/route.ts";
import type { ClassicReportsService } from "./reports.ts";

/**
 * The operators' side of reports, on the admin listener: a paged list,
 * newest first (`?status=open|resolved|dismissed&page&limit`, at most 100 per
 * page), and closing one (`{status: "resolved" | "dismissed"}`), after which
 * the account may report that target again.
 */
export function classicReportsAdminRoutes({ reports }: { reports: ClassicReportsService }): RouteSpec[] {
  return [
    defineRoute({
      method: "GET",
      path: "/admin/classic/reports",
      operationId: "adminClassicReportsList",
      summary: "Reports, newest first, one page at a time",
      tags: [OPERATOR_TAG],
      request: { query: adminClassicReportsQuerySchema },
      responses: { 200: { description: "One page of reports.", schema: adminClassicReportsPageSchema } },
      handler: (request) => reports.list(request.query),
    }),
    defineRoute({
      method: "PATCH",
      path: "/admin/classic/reports/:id",
      operationId: "adminClassicReportReview",
      summary: "Resolves or dismisses a report",
      tags: [OPERATOR_TAG],
      request: { params: adminClassicReportParamsSchema, body: adminClassicReportPatchSchema },
      responses: {
        200: { description: "The report as closed.", schema: adminClassicReviewedReportSchema },
      },
      handler: async (request) => {
        const { id } = request.params;
        const { status } = request.body;
        return { report: await reports.review(id, status) };
      },
    }),
  ];
}
