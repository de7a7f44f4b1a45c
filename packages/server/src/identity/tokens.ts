import { randomBytes } from "node:crypto";
import type { AnySessionKind } from "@mkt/protocol";

/** Token prefixes tell a leaked token's kind at a glance and let a route name the wrong kind exactly. */
export const TOKEN_PREFIX: Record<AnySessionKind, string> = {
  account: "mkts_",
  chat: "mktc_",
  access: "mkta_",
  classic: "mktb_",
};

const TOKEN = /^mkt[scab]_[A-Za-z0-9_-]{43}$/;
const KIND_OF_PREFIX: Record<string, AnySessionKind> = { s: "account", c: "chat", a: "access", b: "classic" };

export function generateSessionToken(kind: AnySessionKind): string {
  return `${TOKEN_PREFIX[kind]}${randomBytes(32).toString("base64url")}`;
}

/** The kind a well-formed token claims, or undefined for anything else. */
export function tokenKind(token: string): AnySessionKind | undefined {
  if (!TOKEN.test(token)) return undefined;
  return KIND_OF_PREFIX[token.charAt(3)];
}

export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(10).toString("hex")}`;
}
