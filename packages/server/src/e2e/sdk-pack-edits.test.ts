import { claimDropsAbi, waitForSuccess } from "@mkt/chain";
import { createMktClient, MktApiError, type MktClient } from "@mkt/client";
import { signInMessage } from "@mkt/protocol";
import { sql } from "kysely";
import { toAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { TEST_ORIGIN } from "../_test/accounts.ts";
import { setupApp, type TestApp } from "../_test/app.ts";
import { setupDevChain, type TestChain } from "../_test/dev-chain.ts";

/**
 * Pack edits end to end: a claim sent to the dev chain's runtime, seen by the
 * app's own indexer, then edited through the SDK over HTTP. The wallets are
 * dev-chain accounts, as the demo simulator's claimers are.
 */
describe("SDK pack edits against the dev chain", () => {
  let chain: TestChain;
  let t: TestApp;
  let baseUrl: string;
  let version: string;
  const dropId = 424_242n;
  const CREATOR = 3;
  const HOLDER = 4;
  /** Every body the SDK posted, to replay one by hand. */
  const posted: string[] = [];
  let client: MktClient;

  const wallet = (index: number) => chain.clients.accounts[index]!;
  const address = (index: number) => wallet(index).address.toLowerCase();

  beforeAll(async () => {
    chain = await setupDevChain(8453);
    const runtime = chain.deployment.runtimes.at(-1)!;
    version = runtime.id;
    const claimDrops = runtime.contracts["ClaimDrops"]!;
    const { publicClient } = chain.clients;
    // As the runtime activity does: one wallet creates a drop, another claims from it (the pack it holds).
    await waitForSuccess(
      publicClient,
      await chain.clients.wallet(CREATOR).writeContract({
        address: claimDrops,
        abi: claimDropsAbi,
        functionName: "createDrop",
        args: [dropId, 0n, 100n],
      }),
    );
    const claim = await chain.clients.wallet(HOLDER).writeContract({
      address: claimDrops,
      abi: claimDropsAbi,
      functionName: "claim",
      args: [dropId, 2n],
    });
    await waitForSuccess(publicClient, claim);

    t = await setupApp({ deployments: [chain.deployment], indexing: true });
    ({ publicUrl: baseUrl } = await t.app.listen());
    // The app's indexer projects the claim; ownership is checked against that projection.
    await vi.waitFor(
      async () => {
        const { rows } = await sql<{ owner: string }>`
          SELECT owner FROM market_claims WHERE transaction_hash = ${claim}`.execute(t.db.kysely);
        expect(rows).toEqual([{ owner: address(HOLDER) }]);
      },
      { timeout: 30_000, interval: 50 },
    );
    const { key } = await t.createKey({ multiplier: 100 });
    const recording = (async (url: URL | string | Request, init?: RequestInit) => {
      if (init?.method === "POST" && typeof init.body === "string") posted.push(init.body);
      return fetch(url, init);
    }) as typeof fetch;
    client = createMktClient({ baseUrl, apiKey: key, fetch: recording, retry: { attempts: 1 } });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await chain?.close();
  });

  const stored = async () =>
    t.db.kysely
      .selectFrom("pack_edits")
      .select(["runtime_id", "pack_id", "owner", "name", "note"])
      .orderBy("owner")
      .execute();
  const refusal = async (promise: Promise<unknown>) => {
    const error = await promise.catch((caught: unknown) => caught);
    if (!(error instanceof MktApiError)) throw new Error(`expected an MktApiError, got ${String(error)}`);
    return { status: error.status, body: error.body };
  };

  it("lets the holder name and annotate the pack; each answer carries the new value", async () => {
    const named = await client.market.packEdit(wallet(HOLDER), version, {
      kind: "set-name",
      packId: dropId.toString(),
      name: "  First pulls ",
    });
    expect(named).toEqual({
      version,
      packId: dropId.toString(),
      owner: address(HOLDER),
      name: "First pulls",
      note: null,
      updatedAt: expect.any(Number),
    });
    const noted = await client.market.packEdit(wallet(HOLDER), version, {
      kind: "set-note",
      packId: dropId.toString(),
      note: "keep sealed",
    });
    expect(noted).toMatchObject({ name: "First pulls", note: "keep sealed" });
    expect(noted.updatedAt).toBeGreaterThanOrEqual(named.updatedAt);
    expect(await stored()).toEqual([
      {
        runtime_id: version,
        pack_id: dropId.toString(),
        owner: address(HOLDER),
        name: "First pulls",
        note: "keep sealed",
      },
    ]);
  });

  it("refuses another wallet (the drop's creator, who claimed nothing) with 403 in the market error body", async () => {
    const refused = await refusal(
      client.market.packEdit(wallet(CREATOR), version, {
        kind: "set-name",
        packId: dropId.toString(),
        name: "Mine now",
      }),
    );
    expect(refused).toEqual({
      status: 403,
      body: { error: `${address(CREATOR)} holds no pack ${dropId} in runtime ${version}` },
    });
    expect((await stored()).map((row) => [row.owner, row.name])).toEqual([[address(HOLDER), "First pulls"]]);
  });

  it("answers 404 for a runtime version that is not a market runtime", async () => {
    const refused = await refusal(
      client.market.packEdit(wallet(HOLDER), "r9", {
        kind: "set-name",
        packId: dropId.toString(),
        name: "Elsewhere",
      }),
    );
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual({
      error: "runtime r9 is not a runtime of the market (see GET /market/runtime)",
    });
  });

  it("refuses a replayed signed edit with 401 and keeps the later value", async () => {
    await client.market.packEdit(wallet(HOLDER), version, {
      kind: "set-name",
      packId: dropId.toString(),
      name: "Old name",
    });
    const first = posted.at(-1)!;
    await client.market.packEdit(wallet(HOLDER), version, {
      kind: "set-name",
      packId: dropId.toString(),
      name: "New name",
    });
    const replay = await fetch(`${baseUrl}/market/runtime/${version}/pack-edit`, {
      method: "POST",
      headers: { "content-type": "application/json", "api-key": (await t.createKey()).key },
      body: first,
    });
    expect(replay.status).toBe(401);
    expect(await replay.json()).toEqual({ error: expect.stringMatching(/nonce was already used/) });
    expect((await stored()).map((row) => row.name)).toEqual(["New name"]);
  });

  it("refuses a sign-in signature over the same fields with 401", async () => {
    const holder = wallet(HOLDER);
    // A wallet that, asked to sign the pack edit, signs a sign-in text with the same nonce and expiry.
    const signsSignIn = toAccount({
      ...holder,
      signMessage: ({ message }) => {
        const text = typeof message === "string" ? message : "";
        const line = (name: string) =>
          text
            .split("\n")
            .find((l) => l.startsWith(`${name}: `))!
            .slice(name.length + 2);
        return holder.signMessage({
          message: signInMessage({
            origin: TEST_ORIGIN,
            address: line("Wallet"),
            nonce: line("Nonce"),
            expires: Number(line("Expires")),
          }),
        });
      },
    });
    const refused = await refusal(
      client.market.packEdit(signsSignIn, version, {
        kind: "set-note",
        packId: dropId.toString(),
        note: "signed in",
      }),
    );
    expect(refused).toEqual({
      status: 401,
      body: { error: expect.stringMatching(/signature is not valid/) },
    });
    expect((await stored()).map((row) => row.note)).toEqual(["keep sealed"]);
  });
});
