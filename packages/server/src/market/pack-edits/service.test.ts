import { randomUUID } from "node:crypto";
import { type PackEditActionInput, packEditMessage, parsePackEditAction } from "@mkt/protocol";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testEnvelopeChecks, testWallet } from "../../_test/accounts.ts";
import { createManualClock, setupApp, type TestApp } from "../../_test/app.ts";
import { setupDatabase, type TestDatabase } from "../../_test/database.ts";
import { claimDropsOf, marketDeployment, seedRuntimes } from "../../_test/market.ts";
import { chainRoles } from "../../chains/index.ts";
import { AppError } from "../../errors.ts";
import { createCursorCodec, createRuntimeCatalog } from "../runtime/index.ts";
import { createPackEditService, type PackEditService } from "./service.ts";

const clock = createManualClock(Date.now());
let database: TestDatabase;
let packEdits: PackEditService;
beforeAll(async () => {
  database = await setupDatabase();
  // The catalog of a market registry with runtimes r1 and r2, as the indexer would have written it.
  const deployment = marketDeployment();
  const scope = await seedRuntimes(database.db, deployment);
  packEdits = createPackEditService({
    db: database.db,
    clock,
    envelopes: testEnvelopeChecks(database.db, clock),
    runtimes: createRuntimeCatalog({
      db: database.db,
      market: chainRoles([deployment]).market,
      cursors: createCursorCodec({ key: async () => Buffer.alloc(32, 1) }),
    }),
  });
  // Drop 7 of runtime r1: wallet 1 claimed from it; wallet 2 claimed drop 7 of runtime r2 only.
  // Wallet 4 claimed drop 7 of an r1 of a registry on another chain: not a market pack.
  const [c1, c2] = [claimDropsOf(deployment, "r1"), claimDropsOf(deployment, "r2")];
  const k = database.db.kysely;
  await sql`INSERT INTO market_drops (scope, chain_id, runtime_id, drop_id, contract, creator, price, max_supply, created_block, created_tx, updated_block)
    VALUES (${scope}, 8453, 'r1', 7, ${c1}, ${address(3)}, 0, 10, 1, '0xa0', 2),
           (${scope}, 8453, 'r2', 7, ${c2}, ${address(3)}, 0, 10, 1, '0xa0', 2)`.execute(k);
  await sql`INSERT INTO market_claims (scope, chain_id, runtime_id, block_number, log_index, transaction_hash, block_time, contract, owner, drop_id, quantity, paid, total_claimed)
    VALUES (${scope}, 8453, 'r1', 2, 0, '0xaa', now(), ${c1}, ${address(1)}, 7, 1, 0, 1),
           (${scope}, 8453, 'r2', 2, 1, '0xbb', now(), ${c2}, ${address(2)}, 7, 1, 0, 1),
           ('1:registry:0xother', 1, 'r1', 3, 0, '0xcc', now(), '0xc9', ${address(4)}, 7, 1, 0, 1)`.execute(
    k,
  );
});
afterAll(() => database.close());

const address = (index: number) => testWallet(index).address.toLowerCase();

async function sign(index: number, version: string, input: PackEditActionInput, nonce = randomUUID()) {
  const fields = { address: address(index), nonce, expires: clock.now() + 60_000 };
  const action = parsePackEditAction(input);
  const signature = await testWallet(index).signMessage({
    message: packEditMessage({ ...fields, version, action }),
  });
  return { ...fields, action, signature };
}

const from = { ip: "192.0.2.1" };

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error.kind;
}

describe("pack edits", () => {
  it("stores the holder's name and note, each edit leaving the other field, null clearing", async () => {
    clock.advance(1000);
    const named = await packEdits.apply(
      "r1",
      await sign(1, "r1", { kind: "set-name", packId: "7", name: " Rare pulls " }),
      from,
    );
    expect(named).toEqual({
      version: "r1",
      packId: "7",
      owner: address(1),
      name: "Rare pulls",
      note: null,
      updatedAt: clock.now(),
    });
    clock.advance(1000);
    const noted = await packEdits.apply(
      "r1",
      await sign(1, "r1", { kind: "set-note", packId: "7", note: "keep" }),
      from,
    );
    expect(noted).toMatchObject({ name: "Rare pulls", note: "keep", updatedAt: clock.now() });
    const cleared = await packEdits.apply(
      "r1",
      await sign(1, "r1", { kind: "set-name", packId: "7", name: null }),
      from,
    );
    expect(cleared).toMatchObject({ name: null, note: "keep" });

    const stored = await database.db.kysely
      .selectFrom("pack_edits")
      .select(["runtime_id", "owner", "name", "note"])
      .where("owner", "=", address(1))
      .execute();
    expect(stored).toEqual([{ runtime_id: "r1", owner: address(1), name: null, note: "keep" }]);
  });

  it("refuses a wallet that holds no such pack in that runtime with 403", async () => {
    // Wallet 2 holds pack 7 in r2, not in r1; the drop's creator claimed nothing; wallet 1 holds no pack 8;
    // wallet 4's claim of drop 7 of an r1 is another chain's registry's.
    expect(
      await refusal(
        packEdits.apply("r1", await sign(4, "r1", { kind: "set-name", packId: "7", name: "x" }), from),
      ),
    ).toBe("forbidden");
    expect(
      await refusal(
        packEdits.apply("r1", await sign(2, "r1", { kind: "set-name", packId: "7", name: "x" }), from),
      ),
    ).toBe("forbidden");
    expect(
      await refusal(
        packEdits.apply("r1", await sign(3, "r1", { kind: "set-name", packId: "7", name: "x" }), from),
      ),
    ).toBe("forbidden");
    expect(
      await refusal(
        packEdits.apply("r1", await sign(1, "r1", { kind: "set-name", packId: "8", name: "x" }), from),
      ),
    ).toBe("forbidden");
    expect(
      (
        await packEdits.apply(
          "r2",
          await sign(2, "r2", { kind: "set-name", packId: "7", name: "mine" }),
          from,
        )
      ).name,
    ).toBe("mine");
  });

  it("refuses an unknown runtime with 404 and a signature over another runtime with 401", async () => {
    expect(
      await refusal(
        packEdits.apply("r9", await sign(1, "r9", { kind: "set-name", packId: "7", name: "x" }), from),
      ),
    ).toBe("not_found");
    expect(
      await refusal(
        packEdits.apply("r1", await sign(2, "r2", { kind: "set-name", packId: "7", name: "x" }), from),
      ),
    ).toBe("unauthorized");
  });

  it("refuses a replayed nonce with 401; a refused edit leaves its nonce unused", async () => {
    const nonce = randomUUID();
    expect(
      await refusal(
        packEdits.apply("r1", await sign(3, "r1", { kind: "set-note", packId: "7", note: "x" }, nonce), from),
      ),
    ).toBe("forbidden");
    const body = await sign(1, "r1", { kind: "set-note", packId: "7", note: "once" }, nonce);
    expect((await packEdits.apply("r1", body, from)).note).toBe("once");
    expect(await refusal(packEdits.apply("r1", body, from))).toBe("unauthorized");
  });
});

describe("POST /market/runtime/{version}/pack-edit", () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await setupApp({ clock });
  });
  afterAll(() => test.close());

  it("answers 404 in {error} for a version that is not a market runtime, 400 for a malformed body", async () => {
    const apiKey = (await test.createKey({ multiplier: 100 })).key;
    const post = (version: string, payload: Record<string, unknown>) =>
      test.app.server.inject({
        method: "POST",
        url: `/market/runtime/${version}/pack-edit`,
        headers: { "api-key": apiKey },
        payload,
      });
    const response = await post("r1", await sign(1, "r1", { kind: "set-name", packId: "7", name: "x" }));
    expect(response.statusCode, response.body).toBe(404);
    expect(response.json()).toEqual({ error: expect.stringContaining("GET /market/runtime") });
    expect(response.headers["cache-control"]).toBe("no-store");
    const malformed = await post("r1", {
      ...(await sign(1, "r1", { kind: "set-name", packId: "7", name: "x" })),
      extra: 1,
    });
    expect(malformed.statusCode).toBe(400);
  });

  it("is not served by the first-party proxy", async () => {
    const response = await test.app.server.inject({
      method: "POST",
      url: "/app/api/runtime/r1/pack-edit",
      payload: await sign(1, "r1", { kind: "set-name", packId: "7", name: "x" }),
    });
    expect(response.statusCode).toBe(404);
  });
});
