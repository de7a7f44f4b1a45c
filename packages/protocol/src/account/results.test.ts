import { describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import { readRateLimit } from "../quotas/index.ts";
import { ACCOUNT_ACTION_FAMILIES, ACCOUNT_ACTION_KINDS } from "./actions.ts";
import { USERNAME_PATTERN, usernameSchema } from "./profile.ts";
import {
  type AccountActionResponse,
  type AccountActionResult,
  accountActionResponseSchema,
  accountActionResponseSchemas,
  accountActionResultSchemas,
} from "./results.ts";

/** Answers of `POST /market/account` as the server sends them (taken from its responses). */
const answers = {
  dm: {
    ok: true,
    kind: "dm",
    family: "dms",
    result: {
      id: "17",
      threadId: "3",
      to: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
      createdAt: 1_790_000_000_000,
    },
  },
  "invite-create": {
    ok: true,
    kind: "invite-create",
    family: "access",
    result: {
      inviteId: "inv_k2x9",
      code: "Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1",
      maxUses: 2,
      uses: 0,
      status: "live",
      createdAt: "2026-11-25T12:00:00.000Z",
    },
  },
  "x-connect": {
    ok: true,
    kind: "x-connect",
    family: "profile",
    result: { mode: "claim", xUsername: "mkt_dev", xVerified: false },
  },
  "wallet-unlink": {
    ok: true,
    kind: "wallet-unlink",
    family: "profile",
    result: { address: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8", unlinked: true, sessionsRevoked: 2 },
  },
} as const;

describe("account action results", () => {
  it("has a result and an answer schema for every kind, with the kind's own family", () => {
    expect(Object.keys(accountActionResultSchemas).sort()).toEqual([...ACCOUNT_ACTION_KINDS].sort());
    for (const kind of ACCOUNT_ACTION_KINDS) {
      const shape = (accountActionResponseSchemas[kind] as unknown as z.ZodObject).shape;
      expect((shape["kind"] as z.ZodLiteral).value).toBe(kind);
      expect((shape["family"] as z.ZodLiteral).value).toBe(ACCOUNT_ACTION_FAMILIES[kind]);
    }
  });

  it("parses the server's answers, by kind and through the union", () => {
    for (const [kind, answer] of Object.entries(answers)) {
      expect(accountActionResponseSchemas[kind as keyof typeof answers].parse(answer)).toEqual(answer);
      expect(accountActionResponseSchema.parse(answer)).toEqual(answer);
    }
  });

  it("refuses an answer of another kind, the wrong family or a result missing a field", () => {
    expect(accountActionResponseSchemas["invite-create"].safeParse(answers.dm).success).toBe(false);
    expect(accountActionResponseSchema.safeParse({ ...answers.dm, family: "chat" }).success).toBe(false);
    const { threadId: _, ...withoutThread } = answers.dm.result;
    expect(accountActionResponseSchema.safeParse({ ...answers.dm, result: withoutThread }).success).toBe(
      false,
    );
    expect(
      accountActionResponseSchema.safeParse({
        ...answers["x-connect"],
        result: { mode: "oauth", xUsername: "mkt_dev", xVerified: false },
      }).success,
    ).toBe(false);
    expect(accountActionResponseSchema.safeParse({ ...answers.dm, kind: "teleport" }).success).toBe(false);
  });

  it("types each kind's result", () => {
    expectTypeOf<AccountActionResult<"dm">>().toEqualTypeOf<{
      id: string;
      threadId: string;
      to: string;
      createdAt: number;
    }>();
    expectTypeOf<AccountActionResult<"wishlist-add">>().toEqualTypeOf<{
      releaseId: string;
      wishlisted: true;
    }>();
    expectTypeOf<AccountActionResponse<"invite-revoke">>().toEqualTypeOf<{
      ok: true;
      kind: "invite-revoke";
      family: "access";
      result: { inviteId: string; status: "revoked" };
    }>();
    expectTypeOf<AccountActionResult<"x-connect">>().toEqualTypeOf<
      | { mode: "oauth"; authorizeUrl: string; expiresAt: number }
      | { mode: "claim"; xUsername: string; xVerified: boolean }
    >();
    expectTypeOf(accountActionResponseSchemas.dm.parse).returns.toEqualTypeOf<AccountActionResponse<"dm">>();
  });
});

describe("usernames", () => {
  it("accepts X's rule and nothing else", () => {
    for (const name of ["a", "mkt_dev", "A1_b2_C3_d4_E5f"])
      expect(usernameSchema.safeParse(name).success).toBe(true);
    for (const name of ["", "sixteen_letters_", "with space", "dash-name", "émile"]) {
      expect(usernameSchema.safeParse(name).success).toBe(false);
    }
    expect(USERNAME_PATTERN.source).toBe("^[A-Za-z0-9_]{1,15}$");
  });
});

describe("RateLimit headers", () => {
  it("reads the three headers, and refuses a missing or malformed one", () => {
    const headers = new Headers({
      "ratelimit-limit": "25",
      "ratelimit-remaining": "24",
      "ratelimit-reset": "60",
    });
    expect(readRateLimit(headers)).toEqual({ limit: 25, remaining: 24, resetSeconds: 60 });
    headers.delete("ratelimit-reset");
    expect(() => readRateLimit(headers)).toThrow();
    headers.set("ratelimit-reset", "soon");
    expect(() => readRateLimit(headers)).toThrow();
  });
});
