import type { IncomingMessage, ServerResponse } from "node:http";
import pLimit from "p-limit";

/** A JSON-RPC request as it arrives over HTTP. */
interface JsonRpcRequest {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

/** Hardhat's handling of one JSON-RPC request: its response object, errors formatted as Hardhat does. */
export type SingleRequestHandler = (request: JsonRpcRequest) => Promise<unknown>;

/** EDR's own request function: the JSON text of `{"result": …}` or `{"error": …}`. */
export type RawRequest = (method: string, params: unknown[]) => Promise<string | undefined>;

/**
 * Read-only methods whose answer EDR's JSON text is passed through as is: these carry the large
 * answers an indexer asks for (eth_getLogs above all), and Hardhat's own path parses EDR's text and
 * re-serialises it with a streaming stringifier, which cost about four times EDR's own work.
 */
const PASS_THROUGH = new Set([
  "eth_blockNumber",
  "eth_chainId",
  "eth_getBlockByHash",
  "eth_getBlockByNumber",
  "eth_getLogs",
  "eth_getTransactionByHash",
  "eth_getTransactionReceipt",
]);

/**
 * Requests a dev chain works on at once, across its HTTP clients and the entries of their batches;
 * the others wait their turn in arrival order. EDR runs each request on a thread of its own
 * (tokio's blocking pool, up to 512, each kept 10 s after its last use), so without a bound one
 * JSON-RPC batch of 200 block headers (the indexer's, catching up) took 200 threads: 409 threads in
 * a process serving two such batches at once. Four answer as many requests a second as no bound
 * did (about 15,000 headers/s from two clients sending 200-header batches, 2026-11-27, the 2-core
 * machine: 15,200-16,400 with 4, 14,400-16,600 with 8, 13,400-17,800 unbounded), with about 20
 * threads in the process.
 */
export const DEV_CHAIN_MAX_IN_FLIGHT = 4;

/**
 * The dev chain's JSON-RPC over HTTP: Hardhat's request handling (CORS, single and batch requests,
 * Hardhat's error bodies), with answers serialised in one piece and successful answers of the
 * read-only methods above taken from EDR's text without a parse and re-serialisation. At most
 * `maxInFlight` requests reach the chain at once (DEV_CHAIN_MAX_IN_FLIGHT).
 */
export function createJsonRpcHttpHandler(
  handleSingle: SingleRequestHandler,
  raw: RawRequest | undefined,
  maxInFlight = DEV_CHAIN_MAX_IN_FLIGHT,
) {
  const limit = pLimit(maxInFlight);
  const answerNow = async (request: JsonRpcRequest): Promise<string> => {
    if (
      raw &&
      request.jsonrpc === "2.0" &&
      (typeof request.id === "number" || typeof request.id === "string") &&
      typeof request.method === "string" &&
      PASS_THROUGH.has(request.method) &&
      (request.params === undefined || Array.isArray(request.params))
    ) {
      const text = await raw(request.method, (request.params as unknown[] | undefined) ?? []);
      // Errors go through Hardhat's path below, which formats them as Hardhat does.
      if (text?.startsWith('{"result":'))
        return `{"jsonrpc":"2.0","id":${JSON.stringify(request.id)},${text.slice(1)}`;
    }
    return JSON.stringify(await handleSingle(request));
  };
  const answer = (request: JsonRpcRequest) => limit(() => answerNow(request));

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    res.setHeader("Access-Control-Allow-Origin", "*");
    res.setHeader("Access-Control-Request-Method", "*");
    res.setHeader("Access-Control-Allow-Methods", "OPTIONS, GET");
    res.setHeader("Access-Control-Allow-Headers", "*");
    if (req.method === "OPTIONS") {
      res.writeHead(200);
      res.end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString());
    } catch (error) {
      const message = `Parse error: ${error instanceof Error ? error.message : String(error)}`;
      send(res, JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message } }));
      return;
    }
    if (Array.isArray(body)) {
      const answers = await Promise.all(body.map((request) => answer(request as JsonRpcRequest)));
      send(res, `[${answers.join(",")}]`);
      return;
    }
    send(res, await answer((body ?? {}) as JsonRpcRequest));
  };
}

function send(res: ServerResponse, text: string) {
  res.statusCode = 200;
  res.setHeader("Content-Type", "application/json");
  res.end(text);
}
