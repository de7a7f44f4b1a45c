import {
  adminClassicReportParamsSchema,
  adminClassicReportPatchSchema,
  adminClassicReportsQuerySchema,
} from "@mkt/protocol";
import type { AdminApp } from "../../http/admin-app.ts";
import type { ClassicReportsService } from "./reports.ts";

/**
 * The operators' side of reports, on the admin listener: a paged list,
 * newest first (`?status=open|resolved|dismissed&page&limit`, at most 100 per
 * page), and closing one (`{status: "resolved" | "dismissed"}`), after which
 * the account may report that target again.
 */
export function registerClassicReportsAdmin(app: AdminApp, { reports }: { reports: ClassicReportsService }) {
  app.get("/admin/classic/reports", { schema: { querystring: adminClassicReportsQuerySchema } }, (request) =>
    reports.list(request.query),
  );
  app.patch(
    "/admin/classic/reports/:id",
    { schema: { params: adminClassicReportParamsSchema, body: adminClassicReportPatchSchema } },
    async (request) => {
      const { id } = request.params;
      const { status } = request.body;
      return { report: await reports.review(id, status) };
    },
  );
}
