import {
  ACCOUNT_ACTION_FAMILIES,
  ACCOUNT_ACTION_KINDS,
  ACCOUNT_LIMITS,
  type AccountActionKind,
  accessSessionCreatedSchema,
  accessSessionRequestSchema,
  accountActionEnvelopeSchema,
  accountActionResponseSchema,
  accountActionSchema,
  chatSessionCreatedSchema,
  DELETION_CONSENT,
  DELETION_LIMITS,
  deletionRequestSchema,
  deletionResultSchema,
  MAX_SIGNATURE_BYTES,
  type SessionKind,
  SIGN_IN_CONSENT,
  SIGN_IN_LIMITS,
  sessionStateSchema,
  signedEnvelopeSchema,
  signInResponseSchema,
} from "@mkt/protocol";
import type { FastifyReply, FastifyRequest } from "fastify";
import { defineRoute, type RouteSpec } from "../../http/route.ts";
import {
  clearedSessionCookie,
  defaultFailedVerificationBudgets,
  NONCE_RULE,
  onProxy,
  type Session,
  type SessionService,
  sessionCookie,
  VERIFICATION_GAS_LIMIT,
} from "../../identity/index.ts";
import type { Clock } from "../../quotas/limiter.ts";
import type { AccountSession, ActionDispatcher } from "./actions.ts";

export interface AccountRoutesDeps {
  clock: Clock;
  sessions: SessionService;
  dispatch: ActionDispatcher;
  secureCookies: boolean;
  /** Each kind's result, for the description. */
  actionResults: Partial<Record<AccountActionKind, string>>;
}

const origin = (request: FastifyRequest) => {
  const value = request.headers.origin;
  return Array.isArray(value) ? value[0] : value;
};

/** What the envelope checks know of the request: its Origin and the client IP, as plain values. */
const signer = (request: FastifyRequest) => ({ origin: origin(request), ip: request.ip });

const { perAddress, perClientGroup } = defaultFailedVerificationBudgets;

const signInDescription = `Starts an account session for the wallet that signed \`signInMessage\` (exported by \`@mkt/protocol\`).

Rules, each refused as stated:
- the request \`Origin\` must equal the signed \`origin\` and be one of \`ALLOWED_ORIGINS\` (403 otherwise; any other site, a documentation site included, is refused);
- \`nonce\` must be ${NONCE_RULE}; it is consumed only after the signature verifies, so nobody can burn another wallet's nonce;
- \`expires\` must be in the future (401) and at most five minutes ahead (400);
- the signature must be the wallet's (401 if not; 503 if the chain cannot be asked), at most ${MAX_SIGNATURE_BYTES} bytes (400 beyond). A 65-byte signature (v 27/28 or 0/1) that recovers to the address is an EOA's, checked without the chain. Only otherwise is chain 8453 asked, and only when the address has code (a deployed contract wallet, ERC-1271) or the signature ends with the ERC-6492 magic suffix (a counterfactual wallet): the ERC-6492 universal validator in an \`eth_call\` capped at ${VERIFICATION_GAS_LIMIT} gas, a call that needs more being an invalid signature;
- failed verifications are budgeted per replica: ${perAddress.limit} per signing address and ${perClientGroup.limit} per client network (an IPv4 address, or an IPv6 /64) in ${perAddress.windowMs / 60_000} minutes. Once either is spent, a signature that does not recover to its address is refused with 429 and Retry-After before the chain is asked; one that does is still accepted, so nobody can lock an EOA out. The same verification and budgets apply to \`wallet-link\` proofs and deletion signatures.

The message, lines in order, no trailing newline:

    mkt marketplace: sign in
    Website: <origin>
    Wallet: <lowercase address>
    Nonce: <nonce>
    Expires: <expires>

    ${SIGN_IN_CONSENT}

    ${SIGN_IN_LIMITS}

Direct backend: answers \`{address, token, expiresAt}\`. Through the first-party proxy (\`/app/api/account/session\`): answers \`{address, expiresAt}\` and sets the \`mkt-session\` cookie (HttpOnly, SameSite=Strict, Path=/app/api, Secure when PUBLIC_URL is https); the token never reaches page scripts.

Account model: an account has one or more wallets, each proven by its own signature; signing in with a new wallet creates an account; a session acts only as the wallet that signed in. Sessions last 30 days and are revocable.`;

const sessionRules =
  "Direct: `Authorization: Bearer <token>` with `Origin` equal to the signed origin and `X-MKT-Wallet` equal to the session's wallet. Through `/app/api`: the session cookie and `X-MKT-Wallet`. Tokens are never read from URLs.";

function actionDescription(results: Partial<Record<AccountActionKind, string>>) {
  const families = new Map<string, AccountActionKind[]>();
  for (const kind of ACCOUNT_ACTION_KINDS) {
    const family = ACCOUNT_ACTION_FAMILIES[kind];
    families.set(family, [...(families.get(family) ?? []), kind]);
  }
  const list = [...families]
    .map(
      ([family, kinds]) =>
        `**${family}**\n${kinds.map((kind) => `- \`${kind}\`: ${results[kind] ?? "see the request schema"}`).join("\n")}`,
    )
    .join("\n\n");
  return `Performs one offchain account action, selected by \`kind\`; any kind outside this allowlist is a 400. The answer is \`{ok: true, kind, family, result}\` with \`result\` as listed:

${list}

Kinds in the releases and artwork families touch only the caller's private state (wishlists, artwork uploaded to the caller's own drafts); anything that changes a release's public content or a pack needs a per-action signature, never a session.

Limits: DM body ${ACCOUNT_LIMITS.dmBody} characters, chat message ${ACCOUNT_LIMITS.chatBody}, bio ${ACCOUNT_LIMITS.bio}, report details ${ACCOUNT_LIMITS.reportDetails}, images ${ACCOUNT_LIMITS.imageBytes / 1024} KiB decoded (PNG, JPEG or WebP, base64 in \`data\`). ${sessionRules}`;
}

/** Writes a new session's credential the way the transport wants it: token in the body, or cookie. */
function deliver(
  request: FastifyRequest,
  reply: FastifyReply,
  kind: SessionKind,
  issued: { token: string; expiresAt: number },
  now: number,
  secure: boolean,
  body: Record<string, unknown>,
) {
  if (!onProxy(request)) return { ...body, token: issued.token, expiresAt: issued.expiresAt };
  reply.header("Set-Cookie", sessionCookie(kind, issued.token, { expiresAt: issued.expiresAt, now, secure }));
  return { ...body, expiresAt: issued.expiresAt };
}

const sessionErrors = {
  401: {
    description: "API key, or the session, missing, invalid, expired or bound to another origin or wallet.",
  },
  403: { description: "A session of another kind (a chat session on an account route, and so on)." },
  429: { description: "Budget exhausted; honour Retry-After." },
  503: { description: "The database is unavailable." },
};

export function accountRoutes({
  clock,
  sessions,
  dispatch,
  secureCookies,
  actionResults,
}: AccountRoutesDeps): RouteSpec[] {
  const state = async (session: Session) => ({
    active: true as const,
    kind: session.kind,
    address: session.wallet,
    accountId: session.accountId,
    wallets: session.accountId ? await sessions.wallets.of(session.accountId) : [],
    createdAt: session.createdAt,
    expiresAt: session.expiresAt,
  });

  /** `GET` (validity) and `DELETE` (sign-out) of one session kind. */
  const stateRoutes = (
    kind: SessionKind,
    path: string,
    tag: string,
    text: { get: [string, string, string]; close: [string, string, string] },
  ) => [
    defineRoute({
      method: "GET",
      path,
      operationId: text.get[0],
      summary: text.get[1],
      description: text.get[2],
      tags: [tag],
      responses: {
        200: { description: "The session is valid.", schema: sessionStateSchema },
        ...sessionErrors,
      },
      handler: async (request, reply) => {
        return state(request.session as Session);
      },
    }),
    defineRoute({
      method: "DELETE",
      path,
      operationId: text.close[0],
      summary: text.close[1],
      description: text.close[2],
      tags: [tag],
      responses: { 204: { description: "Signed out." }, ...sessionErrors },
      handler: async (request, reply) => {
        await sessions.signOut(request.session as Session);
        if (onProxy(request)) reply.header("Set-Cookie", clearedSessionCookie(kind, secureCookies));
        return reply.code(204).send();
      },
    }),
  ];

  return [
    defineRoute({
      method: "POST",
      path: "/account/session",
      operationId: "signIn",
      summary: "Sign in with a wallet signature",
      description: signInDescription,
      tags: ["Accounts"],
      request: { body: signedEnvelopeSchema },
      responses: {
        200: {
          description:
            "Signed in. Direct backend: `SessionCreated` with the token. First-party proxy: `ProxySessionCreated` and the `mkt-session` cookie.",
          schema: signInResponseSchema,
        },
        400: {
          description: `A field is malformed, the nonce is not a UUID v4, expires is more than five minutes ahead, or the signature is longer than ${MAX_SIGNATURE_BYTES} bytes.`,
        },
        401: {
          description: "API key invalid, expired message, reused nonce or a signature not by this wallet.",
        },
        403: { description: "Origin missing, not allowlisted, or not the signed origin." },
        429: {
          description:
            "Write budget exhausted, or the failed signature verifications of this wallet or this client network are spent (see above).",
        },
        503: { description: "The database or the chain RPC (contract wallets) is unavailable." },
      },
      handler: async (request, reply) => {
        const signedIn = await sessions.signIn(request.body, signer(request));
        return deliver(request, reply, "account", signedIn, clock.now(), secureCookies, {
          address: signedIn.address,
        });
      },
    }),
    ...stateRoutes("account", "/account/session", "Accounts", {
      get: [
        "getSession",
        "Report the session's validity",
        `Answers 200 with the session's wallet, account, wallets and expiry while it is valid; 401 once it is expired, signed out or deleted. ${sessionRules}`,
      ],
      close: [
        "signOut",
        "Sign the session out",
        `Revokes the session at once (and the chat sessions it issued); answers 204. Through the proxy it also clears the cookie. ${sessionRules}`,
      ],
    }),
    defineRoute({
      method: "POST",
      path: "/account",
      operationId: "accountAction",
      summary: "Perform an account action",
      description: actionDescription(actionResults),
      tags: ["Accounts"],
      request: { body: accountActionEnvelopeSchema },
      documentedBody: accountActionSchema,
      responses: {
        200: { description: "The action's result.", schema: accountActionResponseSchema },
        400: { description: "Unknown kind, or a field of the kind's body missing, malformed or too long." },
        404: { description: "The account, room, message or image the action names does not exist." },
        409: {
          description: "The action conflicts with the current state (a taken username or slug, and so on).",
        },
        ...sessionErrors,
        403: { description: "A chat or access session, or the action is not allowed (blocked, DM policy)." },
      },
      handler: async (request, reply) => {
        return dispatch({ session: request.session as AccountSession, ...signer(request) }, request.body);
      },
    }),
    defineRoute({
      method: "POST",
      path: "/account/delete",
      operationId: "deleteAccount",
      summary: "Delete the hosted account",
      description: `Needs the account session and a fresh, separate signature of \`deletionMessage\` (from \`@mkt/protocol\`) by the session's wallet; a sign-in signature is refused, and the same origin, nonce, expiry and signature rules as sign-in apply, failed-verification budgets included (429). Removes the hosted account data (profile, wallets' link to the account, messages, follows, rooms' messages, uploads, settings), signs out every device, and keeps only minimal records: revoked session hashes (so a deleted session can never be reused) and a deletion audit row with hashed addresses. Abuse reports about the account expire after 90 days. Public blockchain history and published asset metadata remain.

The message, lines in order, no trailing newline:

    mkt marketplace: delete account
    Website: <origin>
    Wallet: <lowercase address>
    Nonce: <nonce>
    Expires: <expires>

    ${DELETION_CONSENT}

    ${DELETION_LIMITS}

${sessionRules}`,
      tags: ["Accounts"],
      request: { body: deletionRequestSchema },
      responses: {
        200: { description: "The account is deleted.", schema: deletionResultSchema },
        400: { description: "A field is malformed or expires is too far ahead." },
        ...sessionErrors,
        403: {
          description: "Not signed by the session's wallet, origin not allowed, or not an account session.",
        },
      },
      handler: async (request, reply) => {
        const result = await sessions.deletion.deleteAccount(
          request.session as Session,
          request.body,
          signer(request),
        );
        if (onProxy(request)) reply.header("Set-Cookie", clearedSessionCookie("account", secureCookies));
        return result;
      },
    }),
    defineRoute({
      method: "POST",
      path: "/chat/session",
      operationId: "openChatSession",
      summary: "Open a chat session",
      description: `Issues a chat session for the account session's wallet: it authorizes only the room routes and the follow-write routes, never account actions or direct messages. Lasts 24 hours, never past the account session, and ends with it. Direct: the token in the body, sent later as a bearer token with the same Origin and X-MKT-Wallet rules. Through the proxy: the \`mkt-chat\` cookie. ${sessionRules}`,
      tags: ["Scoped sessions"],
      responses: {
        200: { description: "The chat session.", schema: chatSessionCreatedSchema },
        ...sessionErrors,
      },
      handler: async (request, reply) => {
        const parent = request.session as Session;
        const issued = await sessions.issueChatSession(parent);
        return deliver(request, reply, "chat", issued, clock.now(), secureCookies, {
          address: parent.wallet,
        });
      },
    }),
    ...stateRoutes("chat", "/chat/session", "Scoped sessions", {
      get: [
        "getChatSession",
        "Report the chat session's validity",
        "The chat session's state; 401 once it is expired or signed out.",
      ],
      close: ["closeChatSession", "Close the chat session", "Revokes the chat session; answers 204."],
    }),
    defineRoute({
      method: "POST",
      path: "/access/session",
      operationId: "openAccessSession",
      summary: "Open an invite-only access session",
      description:
        "Redeems one use of an invite code (made by an account with `invite-create`, or by the operator) for an access session of 7 days, carried in the `X-MKT-Session` header (through the proxy: the `mkt-access` cookie). It authorizes the invite-only access area only; it is not an account session and an account session cannot act as one.",
      tags: ["Scoped sessions"],
      request: { body: accessSessionRequestSchema },
      responses: {
        200: { description: "The access session.", schema: accessSessionCreatedSchema },
        400: { description: "The code is malformed." },
        401: { description: "API key missing, malformed or invalid." },
        403: { description: "The invite code is unknown, revoked or used up." },
        429: { description: "Write budget exhausted." },
        503: { description: "The database is unavailable." },
      },
      handler: async (request, reply) => {
        const opened = await sessions.openAccessSession(request.body.code);
        return deliver(request, reply, "access", opened, clock.now(), secureCookies, {
          invitedBy: opened.invitedBy,
        });
      },
    }),
    ...stateRoutes("access", "/access/session", "Scoped sessions", {
      get: [
        "getAccessSession",
        "Report the access session's validity",
        "The access session's state, from the `X-MKT-Session` header; 401 once expired or closed. An account or chat token there is refused with 403.",
      ],
      close: ["closeAccessSession", "Close the access session", "Revokes the access session; answers 204."],
    }),
  ];
}
