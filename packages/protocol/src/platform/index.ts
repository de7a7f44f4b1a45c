import { z } from "zod";

/** Liveness answers: `GET /healthz` and `GET /predict/v9/health`. */
export const healthSchema = z.object({ status: z.literal("ok") });

/** `GET /readyz`: the database answers and its migrations are applied. */
export const readinessSchema = z.object({ status: z.literal("ready") });

const path = (description: string) => z.string().describe(`${description} A path on this server.`);

/**
 * `GET /` with `Accept: application/json` (CONTRACT.md): what this server
 * serves and where its references are. Every link is a path on the server
 * that answered, so it holds whatever host name or proxy the client came
 * through; `GET /market/discovery` gives absolute URLs from `PUBLIC_URL`.
 */
export const landingSchema = z
  .object({
    name: z.literal("mkt"),
    description: z.string(),
    apis: z
      .array(
        z.object({
          name: z.enum(["market", "classic", "predict", "app"]),
          title: z.string(),
          basePath: path("The mount point."),
          docsPath: path("The HTML reference."),
          openapiPath: path("The OpenAPI 3.1 document (the proxy's routes are in the market's)."),
        }),
      )
      .describe("The APIs this server mounts."),
    keys: path("`POST` here with `{description, email}` to create an API key."),
    docs: path("The index of the HTML references."),
    health: path("Liveness."),
    readiness: path("Readiness."),
  })
  .meta({ id: "Landing" });

export type Landing = z.output<typeof landingSchema>;

export type { AdminChainHealth, AdminHealth, AdminPriceHealth, AdminScopeHealth } from "./operator-health.ts";
export { adminHealthSchema } from "./operator-health.ts";
