import { SOCIAL_PAGING } from "@mkt/protocol";

/** Texts the social routes' OpenAPI descriptions share. */

export const PAGING_RULES = `Paging: \`limit\` 1 to ${SOCIAL_PAGING.maxLimit} (default ${SOCIAL_PAGING.defaultLimit}); \`cursor\` is the \`next\` of the previous page, opaque and at most ${SOCIAL_PAGING.maxCursorLength} characters, and \`next\` is null on the last page. Cursors are signed by the server and bound to the list and the caller they were issued for: a cursor this API did not return for this very list (made by hand, altered, or another list's or another caller's) is a 400. While the list does not change, every item appears on exactly one page.`;

export const ACCOUNT_SESSION_RULES =
  "Needs the account session: `Authorization: Bearer <token>` with `Origin` equal to the signed origin and `X-MKT-Wallet` equal to the session's wallet (through `/app/api`: the `mkt-session` cookie and `X-MKT-Wallet`). A chat session is refused with 403: it authorizes only the room and follow-write routes.";

export const CHAT_SESSION_RULES =
  "Needs a chat session (`POST /market/chat/session`): `Authorization: Bearer <chat token>` with the same `Origin` and `X-MKT-Wallet` rules as the account session (through `/app/api`: the `mkt-chat` cookie). The account session is refused here with 403; it writes in rooms and follows through `POST /market/account` (`chat-send`, `follow`, `unfollow`).";

export const PUBLIC_READ_RULES =
  "A public read: with PUBLIC_READS=open it needs no API key (then budgeted per client IP at the read rate); with PUBLIC_READS=key (the default) it needs `API-KEY`. No session.";

export const sessionErrors = {
  401: {
    description: "API key, or the session, missing, invalid, expired or bound to another origin or wallet.",
  },
  429: { description: "Budget exhausted; honour Retry-After." },
  503: { description: "The database is unavailable." },
};

export const publicReadErrors = {
  401: {
    description: "API key missing, malformed or invalid (with PUBLIC_READS=key, or when a key is sent).",
  },
  429: { description: "Read budget exhausted; honour Retry-After." },
  503: { description: "The database is unavailable." },
};
