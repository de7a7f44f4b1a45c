import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";

/**
 * The operator listener as its routes see it: a Fastify instance whose route schemas are zod
 * schemas, so `request.params`, `request.query` and `request.body` are typed from the schemas that
 * validated them (no casts). Every area that adds operator routes receives this.
 */
export type AdminApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;
