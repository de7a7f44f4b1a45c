import { ACCOUNT_ACTION_KINDS } from "@mkt/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountAction, type SignedIn, signIn } from "../../_test/accounts.ts";
import { setupApp, type TestApp } from "../../_test/app.ts";

/**
 * Bad input never produces a 5xx on the account surface: every kind of the
 * allowlist with missing, mistyped, oversized and surplus fields, and every
 * session read with malformed query parameters, answers a 4xx in `{error}`.
 */
let test: TestApp;
let alice: SignedIn;
beforeAll(async () => {
  test = await setupApp();
  const { key } = await test.createKey({ multiplier: 1000 });
  alice = await signIn(test, 3, { apiKey: key });
});
afterAll(() => test.close());

const junk: unknown[] = [
  null,
  0,
  -1,
  1.5,
  true,
  "",
  "x".repeat(5000),
  [],
  {},
  ["a"],
  { nested: 1 },
  "0x",
  "0xZZ",
];
const fieldNames = [
  "releaseId",
  "draftId",
  "contentType",
  "data",
  "artworkId",
  "slug",
  "title",
  "roomId",
  "body",
  "replyTo",
  "messageId",
  "to",
  "with",
  "upTo",
  "address",
  "maxUses",
  "inviteId",
  "code",
  "username",
  "bio",
  "size",
  "pixelPfpId",
  "proof",
  "dmPolicy",
  "subject",
  "reason",
  "details",
];

describe("account actions refuse bad input with 4xx", () => {
  it.each(ACCOUNT_ACTION_KINDS)("%s", async (kind) => {
    const bodies: unknown[] = [{ kind }, { kind, unexpected: 1 }];
    for (const field of fieldNames) for (const value of junk) bodies.push({ kind, [field]: value });
    for (const body of bodies) {
      const response = await accountAction(test, alice, body as Record<string, unknown>);
      // Some junk is valid for a kind that ignores nothing (e.g. `{kind}` for list kinds): 2xx is fine, 5xx never.
      expect(response.statusCode, `${JSON.stringify(body).slice(0, 120)} → ${response.body}`).toBeLessThan(
        500,
      );
      if (response.statusCode >= 400) expect(Object.keys(response.json())).toEqual(["error"]);
    }
  });

  it("refuses non-object bodies and a missing or non-string kind", async () => {
    for (const payload of [
      "[]",
      "null",
      "1",
      '"dm"',
      '{"kind":1}',
      '{"kind":null}',
      "{}",
      '{"kind":"__proto__"}',
    ]) {
      const response = await test.app.server.inject({
        method: "POST",
        url: "/market/account",
        headers: { ...alice.headers, "content-type": "application/json" },
        payload,
      });
      expect(response.statusCode, payload).toBe(400);
    }
  });
});

describe("session reads refuse malformed queries with 4xx", () => {
  const queries = [
    "",
    "?with=nope",
    "?with=0x0000000000000000000000000000000000000000",
    "?limit=0",
    "?limit=101",
    "?limit=abc",
    "?cursor=%%%",
    `?cursor=${"a".repeat(600)}`,
    "?cursor=eyJ4IjoxfQ",
    "?with=0x0000000000000000000000000000000000000001&cursor=bad!",
  ];
  for (const path of [
    "/market/dm/threads",
    "/market/dm/messages",
    "/market/dm/unread",
    "/market/rooms",
    "/market/rooms/room_x/messages",
    "/market/accounts/0x1/followers",
  ]) {
    it(path, async () => {
      for (const query of queries) {
        const response = await test.app.server.inject({
          method: "GET",
          url: `${path}${query}`,
          headers: alice.headers,
        });
        expect(response.statusCode, `${path}${query} → ${response.body}`).toBeLessThan(500);
      }
    });
  }
});
