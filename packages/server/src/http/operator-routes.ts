import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { type RouteSpec, requestSchemasOf } from "./route.ts";

/**
 * The operator listener: a Fastify instance whose route schemas are zod schemas, so a handler's
 * `request.params`, `request.query` and `request.body` are typed from the schemas that validated them.
 */
export type AdminApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** The tag of every operator route. */
export const OPERATOR_TAG = "Operator";

/**
 * Mounts operator routes on the operator listener. They are defined like every public route, with
 * `defineRoute` (request schemas, documentation, handler); what a public route declares in its
 * surface's route table is one rule for the whole listener here (`createAdminServer`): the
 * operator token, failed attempts budgeted per client group, `Cache-Control: no-store`. A route
 * defined twice stops the listener at start.
 */
export function mountOperatorRoutes(app: AdminApp, routes: readonly RouteSpec[]): void {
  // Fastify refuses a method and path registered twice (FST_ERR_DUPLICATED_ROUTE).
  for (const route of routes) {
    app.route({
      method: route.method,
      url: route.path,
      schema: requestSchemasOf(route),
      handler: route.handler,
    });
  }
}
