import { z } from "zod";

/** Liveness answers: `GET /healthz` and `GET /predict/v9/health`. */
export const healthSchema = z.object({ status: z.literal("ok") });

/** `GET /readyz`: the database answers and its migrations are applied. */
export const readinessSchema = z.object({ status: z.literal("ready") });
