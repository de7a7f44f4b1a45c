import type { SessionKind } from "@mkt/protocol";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import type { ClassicClass, MarketBucketName } from "../quotas/policies.ts";

/**
 * What a route needs before its handler runs. The surface's guard reads it
 * from the route config: which credential, which budget.
 */
export type Access =
  /** No key and no quota: documentation, health. */
  | { kind: "none" }
  /**
   * Market route charging one bucket; "query" takes it from the `bucket` query parameter
   * (`GET /market/api-key`). `publicRead` routes need no key when PUBLIC_READS=open.
   */
  | { kind: "market"; bucket: MarketBucketName | "query"; publicRead?: boolean }
  /** Classic route in one quota class; `key: false` for the public marketplace-standard metadata routes. */
  | { kind: "classic"; class: ClassicClass; key: boolean }
  /** Every prediction-feed route: key required, one per-IP budget. */
  | { kind: "predict" }
  /** `POST /keys`: keyless, limited per client IP. */
  | { kind: "key-creation" }
  /** Routes authenticated by the API key they act on (self-revocation), without charging a budget. */
  | { kind: "key-holder" };

export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  contentType?: string;
  headers?: Record<string, { description: string; schema: Record<string, unknown> }>;
}

type Infer<T> = T extends z.ZodType ? z.output<T> : unknown;

export interface RouteDefinitionOf<
  Q extends z.ZodObject | undefined,
  P extends z.ZodObject | undefined,
  B extends z.ZodType | undefined,
  H extends z.ZodObject | undefined,
> {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Path below the surface's mount point, in Fastify syntax (`/keys/:id`). */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  access: Access;
  request?: { query?: Q; params?: P; body?: B; headers?: H };
  /** Accepts an `Idempotency-Key` header (POST routes). */
  idempotent?: boolean;
  /** The session kind the route needs (market-api.md section 5), checked after the API key. */
  session?: SessionKind;
  /** The body schema published in OpenAPI when it differs from the validating one (a union checked by the handler). */
  documentedBody?: z.ZodType;
  /** Market routes are also served by the first-party proxy at `/app/api` unless this is false. */
  proxy?: boolean;
  responses: Record<number, ResponseSpec>;
  handler: (
    request: FastifyRequest<{ Querystring: Infer<Q>; Params: Infer<P>; Body: Infer<B>; Headers: Infer<H> }>,
    reply: FastifyReply,
  ) => Promise<unknown> | unknown;
}

export type RouteDefinition = RouteDefinitionOf<
  z.ZodObject | undefined,
  z.ZodObject | undefined,
  z.ZodType | undefined,
  z.ZodObject | undefined
>;

/** Checks a route against its own schemas and erases the types for registration. */
export function defineRoute<
  Q extends z.ZodObject | undefined = undefined,
  P extends z.ZodObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  H extends z.ZodObject | undefined = undefined,
>(route: RouteDefinitionOf<Q, P, B, H>): RouteDefinition {
  return route as unknown as RouteDefinition;
}
