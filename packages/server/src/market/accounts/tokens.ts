import { randomBytes } from "node:crypto";
import type { SessionKind } from "@mkt/protocol";

/** Token prefixes tell a leaked token's kind at a glance and let a route name the wrong kind exactly. */
export const TOKEN_PREFIX: Record<SessionKind, string> = {
  account: "mkts_",
  chat: "mktc_",
  access: "mkta_",
};

const TOKEN = /^mkt[sca]_[A-Za-z0-9_-]{43}$/;

export function generateSessionToken(kind: SessionKind): string {
  return `${TOKEN_PREFIX[kind]}${randomBytes(32).toString("base64url")}`;
}

/** The kind a well-formed token claims, or undefined for anything else. */
export function tokenKind(token: string): SessionKind | undefined {
  if (!TOKEN.test(token)) return undefined;
  return token.startsWith("mkts_") ? "account" : token.startsWith("mktc_") ? "chat" : "access";
}

export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(10).toString("hex")}`;
}
