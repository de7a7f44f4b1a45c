import type { AnySessionKind, SessionKind } from "@mkt/protocol";
import type { JsonObject } from "./openapi-schemas.ts";
import type { RouteDefinition } from "./route.ts";

/** Whether the route needs the `API-KEY` header (by the default `PUBLIC_READS=key` on public reads). */
const needsKey = (route: RouteDefinition) =>
  route.access.kind === "market" ||
  route.access.kind === "predict" ||
  route.access.kind === "key-holder" ||
  (route.access.kind === "classic" && route.access.key);

/** The security scheme of each session kind presented directly, and through the proxy (its cookie). */
const SESSION_SCHEMES: Record<AnySessionKind, string> = {
  account: "AccountSession",
  chat: "ChatSession",
  access: "AccessSession",
  classic: "ClassicBearer",
};
const COOKIE_SCHEMES: Record<SessionKind, string> = {
  account: "AccountSessionCookie",
  chat: "ChatSessionCookie",
  access: "AccessSessionCookie",
};

/**
 * The security requirements of one route, from its declaration: within one
 * requirement object every scheme is needed (AND), between objects any one
 * suffices (OR). An optional session is two alternatives: with the session
 * and without it (the key alone, or nothing through the proxy, which takes no
 * key). Public reads are published with the default `PUBLIC_READS=key`.
 */
export function securityOf(route: RouteDefinition, proxied: boolean): Array<Record<string, string[]>> {
  const base: Record<string, string[]> = !proxied && needsKey(route) ? { ApiKey: [] } : {};
  const session = route.session;
  if (session === undefined) return Object.keys(base).length > 0 ? [base] : [];
  const scheme = proxied && session !== "classic" ? COOKIE_SCHEMES[session] : SESSION_SCHEMES[session];
  const signedIn = { ...base, [scheme]: [] };
  return route.sessionOptional ? [signedIn, base] : [signedIn];
}

/** The schemes the document's operations name, each described once. */
export function securitySchemesOf(
  paths: Record<string, Record<string, JsonObject>>,
  cookies: Readonly<Record<SessionKind, string>> | undefined,
): JsonObject {
  const direct =
    "Sent as `Authorization: Bearer <token>` with `Origin` equal to the origin the wallet signed and `X-MKT-Wallet` equal to the session's wallet; never in a URL. Every route that takes it needs `API-KEY` too.";
  const viaProxy = (kind: SessionKind, scheme: string) =>
    `Through the first-party website proxy (\`/app/api\`) the ${kind} session is the \`${cookies?.[kind]}\` cookie (HttpOnly, SameSite=Strict, Path=/app/api) the proxy's sign-in set, in place of the ${scheme} token; no API key.`;
  const all: Record<string, JsonObject> = {
    ApiKey: {
      type: "apiKey",
      in: "header",
      name: "API-KEY",
      description: "The API key of `POST /keys`, in the `API-KEY` header.",
    },
    AccountSession: {
      type: "http",
      scheme: "bearer",
      description: `An account session token (\`mkts_…\`, \`POST /market/account/session\`). ${direct}`,
    },
    ChatSession: {
      type: "http",
      scheme: "bearer",
      description: `A chat session token (\`mktc_…\`, \`POST /market/chat/session\`): room and follow-write routes only. ${direct}`,
    },
    AccessSession: {
      type: "apiKey",
      in: "header",
      name: "X-MKT-Session",
      description:
        "An invite-only access session token (`mkta_…`, `POST /market/access/session`), in the `X-MKT-Session` header. Every route that takes it needs `API-KEY` too.",
    },
    ClassicBearer: {
      type: "http",
      scheme: "bearer",
      description:
        "The access token of `POST /classic/auth/sign-in` (24 hours), as `Authorization: Bearer <accessToken>`. Where a route lists API-KEY and ClassicBearer both are needed; a bearer never replaces the key.",
    },
    ...(cookies
      ? Object.fromEntries(
          (Object.keys(COOKIE_SCHEMES) as SessionKind[]).map((kind) => [
            COOKIE_SCHEMES[kind],
            {
              type: "apiKey",
              in: "cookie",
              name: cookies[kind],
              description: viaProxy(kind, SESSION_SCHEMES[kind]),
            },
          ]),
        )
      : {}),
  };
  const used = new Set(["ApiKey"]);
  for (const item of Object.values(paths))
    for (const operation of Object.values(item))
      for (const requirement of (operation["security"] ?? []) as Array<Record<string, unknown>>)
        for (const name of Object.keys(requirement)) used.add(name);
  for (const name of used)
    if (!all[name]) throw new Error(`OpenAPI: the security scheme ${name} is used but not described`);
  return Object.fromEntries(Object.entries(all).filter(([name]) => used.has(name)));
}
