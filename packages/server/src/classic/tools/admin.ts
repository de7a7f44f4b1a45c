import {
  adminClassicReportParamsSchema,
  adminClassicReportPatchSchema,
  adminClassicReportsQuerySchema,
} from "@mkt/protocol";
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import type { ClassicReportsService } from "./reports.ts";

/**
 * The operators' side of reports, on the admin listener: a paged list,
 * newest first (`?status=open|resolved|dismissed&page&limit`, at most 100 per
 * page), and closing one (`{status: "resolved" | "dismissed"}`), after which
 * the account may report that target again.
 */
export function registerClassicReportsAdmin(
  app: FastifyInstance,
  { reports }: { reports: ClassicReportsService },
) {
  app.get("/admin/classic/reports", { schema: { querystring: adminClassicReportsQuerySchema } }, (request) =>
    reports.list(request.query as z.output<typeof adminClassicReportsQuerySchema>),
  );
  app.patch(
    "/admin/classic/reports/:id",
    { schema: { params: adminClassicReportParamsSchema, body: adminClassicReportPatchSchema } },
    async (request) => {
      const { id } = request.params as z.output<typeof adminClassicReportParamsSchema>;
      const { status } = request.body as z.output<typeof adminClassicReportPatchSchema>;
      return { report: await reports.review(id, status) };
    },
  );
}
