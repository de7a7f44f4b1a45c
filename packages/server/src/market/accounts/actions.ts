import {
  ACCOUNT_ACTION_FAMILIES,
  ACCOUNT_ACTION_KINDS,
  type AccountAction,
  type AccountActionKind,
  type AccountActionResponse,
  type AccountActionResult,
  accountActionSchemas,
} from "@mkt/protocol";
import { badRequest } from "../../errors.ts";
import type { Session } from "../../identity/index.ts";

/** An account session as an action sees it: always bound to an account and a wallet. */
export interface AccountSession extends Session {
  accountId: string;
  wallet: string;
}

/** What an action knows of its request, as plain values; the route builds it. */
export interface ActionContext {
  /** The caller's account session: its account, the wallet it acts as and the origin it was signed for. */
  session: AccountSession;
  /** The request's `Origin` header (a wallet link's proof is checked against it). */
  origin: string | undefined;
  /** The client IP (TRUST_PROXY applied); failed signature verifications are counted per its group. */
  ip: string;
}

export type ActionOf<K extends AccountActionKind> = Extract<AccountAction, { kind: K }>;

export type ActionHandlers = {
  [K in AccountActionKind]: (context: ActionContext, action: ActionOf<K>) => Promise<AccountActionResult<K>>;
};

/** Parses one body of `POST /market/account` with its kind's schema and runs the kind's handler. */
export type ActionDispatcher = (context: ActionContext, body: unknown) => Promise<AccountActionResponse>;

/**
 * The dispatcher of `POST /market/account`. Every kind of the allowlist has
 * exactly one handler, checked when the server starts, so no kind can be
 * documented and not served. Bodies are parsed here with the kind's own
 * schema, which names the offending field of that kind in the 400.
 */
export function createActionDispatcher(families: Partial<ActionHandlers>[]): ActionDispatcher {
  const handlers: Partial<ActionHandlers> = {};
  for (const family of families) {
    for (const [kind, handler] of Object.entries(family)) {
      if (kind in handlers) throw new Error(`account action ${kind} has two handlers`);
      (handlers as Record<string, unknown>)[kind] = handler;
    }
  }
  const missing = ACCOUNT_ACTION_KINDS.filter((kind) => !(kind in handlers));
  if (missing.length > 0) throw new Error(`account actions without a handler: ${missing.join(", ")}`);

  return async (context: ActionContext, body: unknown): Promise<AccountActionResponse> => {
    const kind = (body as { kind?: unknown } | null)?.kind;
    if (typeof kind !== "string") throw badRequest("body.kind is required: the action to perform");
    if (!Object.hasOwn(accountActionSchemas, kind)) {
      throw badRequest(`unknown action kind ${JSON.stringify(kind.slice(0, 40))}`);
    }
    const schema = accountActionSchemas[kind as AccountActionKind];
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const details = parsed.error.issues.map(
        (issue) => `body${issue.path.length ? `.${issue.path.join(".")}` : ""}: ${issue.message}`,
      );
      throw badRequest(details.join("; "));
    }
    const handler = handlers[kind as AccountActionKind] as (
      context: ActionContext,
      action: AccountAction,
    ) => Promise<AccountActionResult>;
    const result = await handler(context, parsed.data as AccountAction);
    return {
      ok: true,
      kind,
      family: ACCOUNT_ACTION_FAMILIES[kind as AccountActionKind],
      result,
    } as AccountActionResponse;
  };
}
