import { z } from "zod";
import type { Database } from "../db/index.ts";
import { UnavailableError } from "../errors.ts";
import { defineRoute, type RouteDefinition } from "../http/route.ts";

export function predictRoutes({ db }: { db: Database }): RouteDefinition[] {
  return [
    defineRoute({
      method: "GET",
      path: "/health",
      operationId: "predictHealth",
      summary: "Health of the prediction feed",
      description:
        "Like every route under /predict/v9 it needs the API-KEY header and counts against the key's budget. 200 while the feed's database answers; 503 (not cacheable) otherwise.",
      tags: ["Runtime"],
      access: { kind: "predict" },
      responses: {
        200: { description: "The feed can serve.", schema: z.object({ status: z.literal("ok") }) },
        429: { description: "API key missing or invalid, or quota exhausted (one identical response)." },
        503: { description: "The database does not answer." },
      },
      handler: async (_request, reply) => {
        try {
          await db.ping();
        } catch (error) {
          throw new UnavailableError("the prediction feed's database does not answer", { cause: error });
        }
        reply.header("Cache-Control", "no-store");
        return { status: "ok" };
      },
    }),
  ];
}
