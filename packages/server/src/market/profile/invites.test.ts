import { createHash } from "node:crypto";
import { PROFILE_LIMITS } from "@mkt/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountAction, type SignedIn, signIn } from "../../_test/accounts.ts";
import { setupApp, TEST_ADMIN_TOKEN, type TestApp } from "../../_test/app.ts";

let test: TestApp;
let apiKey: string;
let alice: SignedIn;
let bob: SignedIn;
let carol: SignedIn;
let dave: SignedIn;

beforeAll(async () => {
  test = await setupApp();
  apiKey = (await test.createKey({ multiplier: 100 })).key;
  alice = await signIn(test, 1, { apiKey });
  bob = await signIn(test, 2, { apiKey });
  carol = await signIn(test, 3, { apiKey });
  dave = await signIn(test, 4, { apiKey });
});
afterAll(() => test.close());

const createInvite = async (who: SignedIn, maxUses?: number) => {
  const response = await accountAction(test, who, { kind: "invite-create", ...(maxUses ? { maxUses } : {}) });
  expect(response.statusCode).toBe(200);
  return response.json().result as { inviteId: string; code: string; maxUses: number };
};
const claim = (who: SignedIn, code: string) => accountAction(test, who, { kind: "referral-claim", code });
const operatorInvite = (body: unknown, token = TEST_ADMIN_TOKEN) =>
  test.app.admin.inject({
    method: "POST",
    url: "/admin/invites",
    headers: { authorization: `Bearer ${token}` },
    payload: body as object,
  });

describe("invites", () => {
  it("shows a code once and stores only its SHA-256", async () => {
    const invite = await createInvite(alice, 3);
    expect(invite).toMatchObject({ maxUses: 3, uses: 0, status: "live" });
    expect(invite.code).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    expect(invite.inviteId).toMatch(/^inv_[a-z0-9]+$/);
    const row = await test.db.kysely
      .selectFrom("invites")
      .selectAll()
      .where("id", "=", invite.inviteId)
      .executeTakeFirstOrThrow();
    expect(row.code_hash).toBe(createHash("sha256").update(invite.code).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(invite.code);

    const listed = (await accountAction(test, alice, { kind: "invite-list" })).json().result.invites;
    expect(listed).toContainEqual({
      inviteId: invite.inviteId,
      maxUses: 3,
      uses: 0,
      status: "live",
      createdAt: expect.any(String),
    });
    expect(JSON.stringify(listed)).not.toContain(invite.code);
    expect((await accountAction(test, bob, { kind: "invite-list" })).json().result.invites).toEqual([]);
  });

  it(`allows ${PROFILE_LIMITS.liveInvites} live invites per account; revoking frees a place`, async () => {
    const existing = (await accountAction(test, dave, { kind: "invite-list" })).json().result.invites.length;
    const made = [];
    for (let i = existing; i < PROFILE_LIMITS.liveInvites; i++) made.push(await createInvite(dave));
    const refused = await accountAction(test, dave, { kind: "invite-create" });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatch(/at most 20 live invites/);

    const notMine = await accountAction(test, alice, { kind: "invite-revoke", inviteId: made[0]!.inviteId });
    expect(notMine.statusCode).toBe(404);
    const revoked = await accountAction(test, dave, { kind: "invite-revoke", inviteId: made[0]!.inviteId });
    expect(revoked.json().result).toEqual({ inviteId: made[0]!.inviteId, status: "revoked" });
    expect((await accountAction(test, dave, { kind: "invite-create" })).statusCode).toBe(200);
    expect((await accountAction(test, dave, { kind: "invite-create" })).statusCode).toBe(409);
    // A revoked code redeems nothing.
    const access = await test.app.server.inject({
      method: "POST",
      url: "/market/access/session",
      headers: { "api-key": apiKey },
      payload: { code: made[0]!.code },
    });
    expect(access.statusCode).toBe(403);
    expect((await claim(carol, made[0]!.code)).statusCode).toBe(404);
    const listed = (await accountAction(test, dave, { kind: "invite-list" })).json().result.invites as {
      inviteId: string;
      status: string;
    }[];
    const revokedId = made[0]!.inviteId;
    expect(listed.find((invite) => invite.inviteId === revokedId)?.status).toBe("revoked");
    expect(listed.filter((invite) => invite.status === "live")).toHaveLength(PROFILE_LIMITS.liveInvites);
  });

  it("refuses out-of-range maxUses", async () => {
    expect((await accountAction(test, alice, { kind: "invite-create", maxUses: 0 })).statusCode).toBe(400);
    expect((await accountAction(test, alice, { kind: "invite-create", maxUses: 51 })).statusCode).toBe(400);
  });
});

describe("referral-claim", () => {
  it("records the invite's creator once and consumes one use", async () => {
    const invite = await createInvite(alice, 2);
    const self = await claim(alice, invite.code);
    expect(self.statusCode).toBe(403);
    expect(self.json().error).toMatch(/cannot refer itself/);

    const claimed = await claim(bob, invite.code);
    expect(claimed.statusCode).toBe(200);
    expect(claimed.json().result).toEqual({ referredBy: alice.address, inviteId: invite.inviteId });
    const bobRow = await test.db.kysely
      .selectFrom("accounts")
      .innerJoin("account_wallets", "account_wallets.account_id", "accounts.id")
      .select("accounts.referred_by")
      .where("account_wallets.address", "=", bob.address)
      .executeTakeFirstOrThrow();
    const aliceRow = await test.db.kysely
      .selectFrom("account_wallets")
      .select("account_id")
      .where("address", "=", alice.address)
      .executeTakeFirstOrThrow();
    expect(bobRow.referred_by).toBe(aliceRow.account_id);

    const twice = await claim(bob, (await createInvite(carol)).code);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error).toMatch(/already has a referrer/);

    // Bob referred by Alice: Alice cannot then be referred by Bob.
    const back = await claim(alice, (await createInvite(bob)).code);
    expect(back.statusCode).toBe(403);

    const listed = (await accountAction(test, alice, { kind: "invite-list" })).json().result.invites;
    expect(listed.find((row: { inviteId: string }) => row.inviteId === invite.inviteId)).toMatchObject({
      uses: 1,
      status: "live",
    });
  });

  it("refuses a used-up, unknown or operator invite", async () => {
    const single = await createInvite(carol, 1);
    // An access session spends the only use.
    const access = await test.app.server.inject({
      method: "POST",
      url: "/market/access/session",
      headers: { "api-key": apiKey },
      payload: { code: single.code },
    });
    expect(access.statusCode).toBe(200);
    const usedUp = await claim(dave, single.code);
    expect(usedUp.statusCode).toBe(409);
    expect(usedUp.json().error).toMatch(/used up/);
    expect((await accountAction(test, carol, { kind: "invite-list" })).json().result.invites).toContainEqual(
      expect.objectContaining({ inviteId: single.inviteId, uses: 1, status: "used-up" }),
    );

    expect((await claim(dave, "Unknown-code-0123456789")).statusCode).toBe(404);
    expect((await claim(dave, "short")).statusCode).toBe(400);

    const operator = (await operatorInvite({ maxUses: 5 })).json();
    const byOperator = await claim(dave, operator.code);
    expect(byOperator.statusCode).toBe(403);
    expect(byOperator.json().error).toMatch(/operator/);
    const daveRow = await test.db.kysely
      .selectFrom("accounts")
      .innerJoin("account_wallets", "account_wallets.account_id", "accounts.id")
      .select("accounts.referred_by")
      .where("account_wallets.address", "=", dave.address)
      .executeTakeFirstOrThrow();
    expect(daveRow.referred_by).toBeNull();
  });
});

describe("POST /admin/invites", () => {
  it("creates an operator invite whose code opens access sessions", async () => {
    const created = await operatorInvite({ maxUses: 2 });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({
      maxUses: 2,
      uses: 0,
      status: "live",
      code: expect.stringMatching(/^[\w-]{32}$/),
    });
    const row = await test.db.kysely
      .selectFrom("invites")
      .select(["created_by", "code_hash"])
      .where("id", "=", body.inviteId)
      .executeTakeFirstOrThrow();
    expect(row.created_by).toBeNull();
    expect(row.code_hash).toBe(createHash("sha256").update(body.code).digest("hex"));
    const access = await test.app.server.inject({
      method: "POST",
      url: "/market/access/session",
      headers: { "api-key": apiKey },
      payload: { code: body.code },
    });
    expect(access.statusCode).toBe(200);
    expect(access.json().invitedBy).toBeNull();
  });

  it("needs the operator token and a valid body", async () => {
    expect((await operatorInvite({ maxUses: 1 }, "wrong-token-wrong-token")).statusCode).toBe(401);
    expect((await operatorInvite({ maxUses: 0 })).statusCode).toBe(400);
    expect((await operatorInvite({ maxUses: 1001 })).statusCode).toBe(400);
    expect((await operatorInvite({ maxUses: 1, createdBy: "x" })).statusCode).toBe(400);
    expect((await operatorInvite({})).json()).toMatchObject({ maxUses: 1 });
  });
});

describe("invite-list paging", () => {
  it("pages an account's invites, newest first, each exactly once, however many a create/revoke loop made", async () => {
    const erin = await signIn(test, 5, { apiKey });
    const made: string[] = [];
    for (let i = 0; i < 60; i++) {
      const { inviteId } = await createInvite(erin);
      expect((await accountAction(test, erin, { kind: "invite-revoke", inviteId })).statusCode).toBe(200);
      made.push(inviteId);
    }
    const list = async (body: Record<string, unknown>) => {
      const response = await accountAction(test, erin, { kind: "invite-list", ...body });
      expect(response.statusCode).toBe(200);
      return response.json().result as {
        invites: { inviteId: string; createdAt: string }[];
        next: string | null;
      };
    };

    const first = await list({});
    expect(first.invites).toHaveLength(50);
    expect(first.next).not.toBeNull();

    const pages = [];
    let cursor: string | undefined;
    do {
      const page = await list({ limit: 25, ...(cursor ? { cursor } : {}) });
      pages.push(page.invites);
      cursor = page.next ?? undefined;
    } while (cursor !== undefined);
    expect(pages.map((page) => page.length)).toEqual([25, 25, 10]);
    const listed = pages.flat();
    expect(new Set(listed.map((invite) => invite.inviteId))).toEqual(new Set(made));
    const times = listed.map((invite) => Date.parse(invite.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(first.invites.map((invite) => invite.inviteId)).toEqual(
      listed.slice(0, 50).map((invite) => invite.inviteId),
    );
  });

  it("refuses a limit outside 1 to 100 and a cursor it did not return", async () => {
    for (const body of [{ limit: 0 }, { limit: 101 }, { limit: 2.5 }, { cursor: "not-a-cursor" }]) {
      const response = await accountAction(test, alice, { kind: "invite-list", ...body });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
  });
});
