import type { AdminIndexer, AdminIndexerHandOffs } from "@mkt/protocol";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setupApp, TEST_ADMIN_TOKEN, type TestApp } from "../_test/app.ts";
import { setupDevChain, type TestChain } from "../_test/dev-chain.ts";
import { scopesOf } from "../indexer/projections.ts";

/**
 * The writer as one replica's operator listener shows it and moves it (`/admin/indexer`, the
 * hand-off routes, `mkt_indexer_writer`). Across processes on PostgreSQL:
 * e2e/indexer-writer.test.ts.
 */

let chain: TestChain;
let writer: TestApp;
let reader: TestApp;

beforeAll(async () => {
  chain = await setupDevChain(8453);
  writer = await setupApp({
    deployments: [chain.deployment],
    indexing: true,
    env: { MKT_REPLICA_ID: "solo-1" },
  });
  await writer.app.listen();
  // Indexing asked for, but the configuration turns it off.
  reader = await setupApp({
    deployments: [chain.deployment],
    indexing: true,
    env: { MKT_REPLICA_ID: "reader-1", MKT_INDEXER: "0" },
  });
  await reader.app.listen();
}, 120_000);

afterAll(async () => {
  await reader?.close();
  await writer?.close();
  await chain?.close();
});

/** An operator request with the right token: the whole answer (status, body, headers). */
const call = (test: TestApp, method: "GET" | "POST", url: string, body?: object) =>
  test.app.admin.inject({
    method,
    url,
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    ...(body === undefined ? {} : { payload: body }),
  });

const scopeIds = () =>
  scopesOf([chain.deployment])
    .map((scope) => scope.id)
    .sort();

const indexerOf = async (test: TestApp) => {
  const response = await call(test, "GET", "/admin/indexer");
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AdminIndexer>();
};

const writerGauges = async (test: TestApp) => {
  const text = (await call(test, "GET", "/metrics")).body;
  return Object.fromEntries(
    [...text.matchAll(/^mkt_indexer_writer\{scope="([^"]+)"\} (\d)$/gm)].map((match) => [match[1], match[2]]),
  );
};

describe("the indexer's writer on the operator listener", () => {
  it("names this replica as every scope's writer, with the writer gauge at 1", async () => {
    await vi.waitFor(
      async () => {
        const answer = await indexerOf(writer);
        expect(answer.scopes.map((scope) => scope.scope).sort()).toEqual(scopeIds());
        for (const scope of answer.scopes)
          expect(scope.writer).toEqual({ replica: "solo-1", thisReplica: true, holdOffUntil: null });
      },
      { timeout: 30_000, interval: 50 },
    );
    expect(await indexerOf(writer)).toMatchObject({ replica: "solo-1", indexing: true });
    expect(await writerGauges(writer)).toEqual(Object.fromEntries(scopeIds().map((id) => [id, "1"])));
    expect((await call(writer, "GET", "/metrics")).body).toMatch(/^mkt_replica_info\{replica="solo-1"\} 1$/m);
  });

  it("with MKT_INDEXER=0, never writes and says so", async () => {
    const answer = await indexerOf(reader);
    expect(answer).toMatchObject({ replica: "reader-1", indexing: false });
    for (const scope of answer.scopes) expect(scope.writer.thisReplica).toBe(false);
    expect(await writerGauges(reader)).toEqual(Object.fromEntries(scopeIds().map((id) => [id, "0"])));
    const handOff = await call(reader, "POST", "/admin/indexer/handoff", {});
    expect(handOff.statusCode, handOff.body).toBe(200);
    expect(
      handOff.json<AdminIndexerHandOffs>().handOffs.map(({ scope, released }) => ({ scope, released })),
    ).toEqual(scopeIds().map((scope) => ({ scope, released: false })));
    const one = await call(reader, "POST", `/admin/indexer/${encodeURIComponent(scopeIds()[0]!)}/handoff`);
    expect(one.statusCode, one.body).toBe(409);
    expect(one.json<{ error: string }>().error).toMatch(
      /^replica reader-1 does not hold the writer lock of /,
    );
  });

  it("refuses an unknown scope (404) and a bad body (400)", async () => {
    const path = `/admin/indexer/${encodeURIComponent(scopeIds()[0]!)}/handoff`;
    expect((await call(writer, "POST", "/admin/indexer/8453%3Anope/handoff", {})).statusCode).toBe(404);
    for (const body of [
      { holdOffSeconds: 0 },
      { holdOffSeconds: 3601 },
      { holdOffSeconds: 1.5 },
      { holdOff: 5 },
    ]) {
      const response = await call(writer, "POST", path, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    // Refused requests changed nothing.
    for (const scope of (await indexerOf(writer)).scopes) expect(scope.writer.thisReplica).toBe(true);
  });

  it("hands one scope off, stays away for the hold-off, then takes it back when nobody else did", async () => {
    const [scope] = scopeIds();
    const before = Date.now();
    const response = await call(writer, "POST", `/admin/indexer/${encodeURIComponent(scope!)}/handoff`, {
      holdOffSeconds: 1,
    });
    expect(response.statusCode, response.body).toBe(200);
    const { replica, handOffs } = response.json<AdminIndexerHandOffs>();
    expect(replica).toBe("solo-1");
    // The answer waits up to 5 s to name who took over: on PostgreSQL, this replica itself once its
    // 1 s hold-off ended (no other replica indexes); on PGlite (one process) it does not wait.
    const takenBy = writer.db.kind === "postgres" ? "solo-1" : null;
    expect(handOffs).toEqual([
      { scope, released: true, writer: "solo-1", takenBy, holdOffUntil: expect.any(Number) },
    ]);
    expect(handOffs[0]!.holdOffUntil).toBeGreaterThanOrEqual(before + 1_000);
    // Released: nobody writes the scope now, and this replica says it stays away.
    const during = (await indexerOf(writer)).scopes.find((row) => row.scope === scope)!;
    if (Date.now() < handOffs[0]!.holdOffUntil!) {
      expect(during.writer).toEqual({
        replica: null,
        thisReplica: false,
        holdOffUntil: handOffs[0]!.holdOffUntil,
      });
      expect((await writerGauges(writer))[scope!]).toBe("0");
    }
    // The other scopes kept their writer.
    for (const row of (await indexerOf(writer)).scopes)
      if (row.scope !== scope) expect(row.writer.thisReplica).toBe(true);
    await vi.waitFor(
      async () => {
        const after = (await indexerOf(writer)).scopes.find((row) => row.scope === scope)!;
        expect(after.writer).toEqual({ replica: "solo-1", thisReplica: true, holdOffUntil: null });
      },
      { timeout: 10_000, interval: 100 },
    );
    // Indexing goes on once it is back.
    await chain.simulate(3);
    const latest = Number(await chain.clients.publicClient.getBlockNumber());
    await vi.waitFor(
      async () => {
        const after = (await indexerOf(writer)).scopes.find((row) => row.scope === scope)!;
        expect(after.observedHead).toBe(latest);
        expect(after.nextBlock - 1).toBe(after.targetBlock);
      },
      { timeout: 30_000, interval: 100 },
    );
  }, 60_000);
});
