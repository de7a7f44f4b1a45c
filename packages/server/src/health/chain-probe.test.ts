import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createLogCapture } from "../_test/app.ts";
import { createLogger } from "../logging/index.ts";
import { createChainProbes } from "./chain-probe.ts";

const RPC_URL = "https://rpc.example/v2/secret-api-key";

/** One probe of one chain whose RPC answers with `answer`; its state and the log lines. */
async function probeWith(answer: () => Promise<Response>) {
  const logs = createLogCapture();
  const probes = createChainProbes({
    chains: [{ chainId: 8453, rpcUrl: RPC_URL }],
    clock: { now: () => 1_000 },
    logger: createLogger({ level: "trace", destination: logs.stream }),
    registry: new Registry(),
    timeoutMs: 200,
    fetch: async () => answer(),
  });
  await probes.probeNow();
  return { state: probes.states()[0]!, unreachable: probes.unreachable(), logs };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("chain probe", () => {
  it("records the head of an answering RPC", async () => {
    const { state, unreachable } = await probeWith(async () =>
      json({ jsonrpc: "2.0", id: 1, result: "0x1a" }),
    );
    expect(state).toEqual({
      chainId: 8453,
      up: true,
      head: 26,
      lastSuccessAt: 1_000,
      lastErrorAt: null,
      lastError: null,
    });
    expect(unreachable).toEqual([]);
  });

  it.each([
    ["an HTTP error", async () => json({ error: "nope" }, 502), "http 502"],
    [
      "a JSON-RPC error",
      async () =>
        json({ jsonrpc: "2.0", id: 1, error: { code: -32005, message: "secret-api-key rate limited" } }),
      "rpc error -32005",
    ],
    [
      "an answer without a block number",
      async () => json({ jsonrpc: "2.0", id: 1, result: "soon" }),
      "invalid answer",
    ],
    ["a body that is not JSON", async () => new Response("<html>secret-api-key</html>"), "invalid answer"],
    [
      "a refused connection",
      async () => {
        throw new TypeError("fetch failed", {
          cause: Object.assign(new Error(`connect ECONNREFUSED ${RPC_URL}`), { code: "ECONNREFUSED" }),
        });
      },
      "connection refused",
    ],
    [
      "a timeout",
      async () => {
        throw new DOMException("The operation was aborted due to timeout", "TimeoutError");
      },
      "timeout",
    ],
  ])("classes %s without the URL or the provider's text", async (_name, answer, kind) => {
    const { state, unreachable, logs } = await probeWith(answer);
    expect(state).toMatchObject({
      up: false,
      head: null,
      lastError: kind,
      lastErrorAt: 1_000,
      lastSuccessAt: null,
    });
    expect(unreachable).toEqual([8453]);
    expect(logs.text()).toContain("chain RPC unreachable");
    expect(logs.text()).not.toContain("secret-api-key");
  });
});
