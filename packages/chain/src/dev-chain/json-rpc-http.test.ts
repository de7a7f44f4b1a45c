import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createJsonRpcHttpHandler, DEV_CHAIN_MAX_IN_FLIGHT } from "./json-rpc-http.ts";

/**
 * The chain behind the handler, held: every request it receives waits until the test lets it
 * answer, so the requests in flight at once can be counted.
 */
function heldChain() {
  const waiting: { id: unknown; answer: () => void }[] = [];
  let inFlight = 0;
  let most = 0;
  const handleSingle = async (request: { id?: unknown; method?: unknown }) => {
    inFlight++;
    most = Math.max(most, inFlight);
    await new Promise<void>((resolve) => waiting.push({ id: request.id, answer: resolve }));
    inFlight--;
    return { jsonrpc: "2.0", id: request.id, result: `answer ${String(request.id)}` };
  };
  return { handleSingle, waiting, most: () => most };
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function serve(handler: ReturnType<typeof createJsonRpcHttpHandler>): Promise<string> {
  server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const post = (url: string, body: unknown) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("the dev chain's JSON-RPC over HTTP", () => {
  it(`works on at most ${DEV_CHAIN_MAX_IN_FLIGHT} requests at once, across batches and single requests, and answers a batch in its order`, async () => {
    const chain = heldChain();
    const url = await serve(createJsonRpcHttpHandler(chain.handleSingle, undefined));
    const batch = Array.from({ length: 30 }, (_, i) => ({
      jsonrpc: "2.0",
      id: i,
      method: "eth_getBlockByNumber",
    }));
    const batched = post(url, batch).then((response) => response.json());
    const single = post(url, { jsonrpc: "2.0", id: "single", method: "eth_blockNumber" }).then((response) =>
      response.json(),
    );

    // Let the chain answer one request at a time; each time the next waiting one takes its place.
    let answered = 0;
    while (answered < batch.length + 1) {
      await vi.waitFor(() =>
        expect(chain.waiting.length).toBe(Math.min(DEV_CHAIN_MAX_IN_FLIGHT, batch.length + 1 - answered)),
      );
      chain.waiting.shift()!.answer();
      answered++;
    }

    expect(chain.most()).toBe(DEV_CHAIN_MAX_IN_FLIGHT);
    expect(await batched).toEqual(batch.map(({ id }) => ({ jsonrpc: "2.0", id, result: `answer ${id}` })));
    expect(await single).toEqual({ jsonrpc: "2.0", id: "single", result: "answer single" });
  });
});
