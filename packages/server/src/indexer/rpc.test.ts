import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { classicErrorSchema } from "@mkt/protocol";
import { createPublicClient, custom, type PublicClient } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupApp, type TestApp } from "../_test/app.ts";
import { type ClassicSignedIn, signInClassic } from "../_test/classic.ts";
import { setupDevChain, type TestChain } from "../_test/dev-chain.ts";
import { createChainRpc, RpcUnavailableError } from "./rpc.ts";

/**
 * The RPC boundary classifies failures as the database boundary does: an RPC that cannot answer is
 * an `RpcUnavailableError` (retryable), never an answer such as "no receipt"; and a route that meets
 * it answers 503 with `Retry-After` in its surface's body.
 */

const HASH = `0x${"ab".repeat(32)}` as const;

/** A client whose every request gets `answer` (a value, or an error thrown). */
const clientAnswering = (answer: () => unknown) =>
  createPublicClient({
    transport: custom({
      async request() {
        return answer();
      },
    }),
  }) as PublicClient;

describe("the chain RPC's failures", () => {
  it("reads a receipt the RPC does not have as undefined, and one it has with its block and logs", async () => {
    expect(
      await createChainRpc({ rpcUrl: "http://unused", client: clientAnswering(() => null) }).receipt(HASH),
    ).toBe(undefined);
    const found = await createChainRpc({
      rpcUrl: "http://unused",
      client: clientAnswering(() => ({ blockNumber: "0x2a", logs: [] })),
    }).receipt(HASH);
    expect(found).toEqual({ blockNumber: 42n, logs: [] });
  });

  it("rejects with RpcUnavailableError when the RPC fails, for receipts, headers and the head", async () => {
    const rpc = createChainRpc({
      rpcUrl: "http://unused",
      client: clientAnswering(() => {
        throw new Error("connect ECONNREFUSED 127.0.0.1:9");
      }),
    });
    for (const call of [() => rpc.receipt(HASH), () => rpc.header(1n), () => rpc.latestBlock()]) {
      const failure = await call().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(RpcUnavailableError);
      expect((failure as RpcUnavailableError).retryable).toBe(true);
      expect((failure as Error).message).toContain("ECONNREFUSED");
    }
  });
});

describe("GET /classic/events/{txHash} with the classic chain's RPC failing", () => {
  let chain: TestChain;
  let t: TestApp;
  let creator: ClassicSignedIn;
  /** An HTTP server that answers every JSON-RPC request with a 502, as a failing provider does. */
  let failing: Server;

  beforeAll(async () => {
    chain = await setupDevChain(8453);
    failing = createServer((_request, response) => {
      response.writeHead(502, { "content-type": "text/plain" });
      response.end("bad gateway");
    });
    await new Promise<void>((resolve) => failing.listen(0, "127.0.0.1", resolve));
    const port = (failing.address() as AddressInfo).port;
    t = await setupApp({ deployments: [{ ...chain.deployment, rpcUrl: `http://127.0.0.1:${port}` }] });
    const apiKey = (await t.createKey({ multiplier: 100 })).key;
    creator = await signInClassic(t.app.server, { apiKey, walletIndex: 71, now: Date.now() });
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => failing?.close(resolve));
    await chain?.close();
  });

  it("answers 503 with Retry-After in the classic error body, never 404 TRANSACTION_NOT_FOUND", async () => {
    const response = await t.app.server.inject({
      method: "GET",
      url: `/classic/events/${HASH}`,
      headers: creator.headers,
    });
    expect(response.statusCode).toBe(503);
    expect(response.headers["retry-after"]).toBe("1");
    expect(response.headers["cache-control"]).toBe("no-store");
    const body = classicErrorSchema.parse(response.json());
    expect(body).toMatchObject({ success: false, error: "SERVICE_UNAVAILABLE" });
    expect(JSON.stringify(body)).not.toContain("127.0.0.1");
  });
});
