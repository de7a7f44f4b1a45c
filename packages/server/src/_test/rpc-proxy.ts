import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";

/**
 * What the proxy does to the calls it gets:
 * - `none`: forwards each to the chain;
 * - `refuse`: stops listening and resets every open connection, as a
 *   provider that is down (connections are refused);
 * - `hang`: accepts calls and never answers them, as a provider that stalls
 *   (the caller's own timeout ends each call);
 * - `{ delayMs }`: forwards each after a delay, as a slow provider.
 */
export type RpcFault = "none" | "refuse" | "hang" | { delayMs: number };

export interface RpcProxy {
  /** The URL to give the app instead of the chain's. */
  url: string;
  /** Switches the fault; calls held by `hang` are reset when it ends. */
  setFault(fault: RpcFault): Promise<void>;
  /** Calls answered (forwarded and answered by the chain) so far. */
  readonly answered: number;
  /** Calls held unanswered right now (`hang`). */
  readonly hanging: number;
  close(): Promise<void>;
}

/**
 * A JSON-RPC proxy on a loopback port of its own, between the app and a dev
 * chain, that can refuse, hang or delay every call: the RPC outages of a real
 * provider, injected while the chain itself keeps producing blocks.
 */
export async function startRpcProxy(target: string): Promise<RpcProxy> {
  let fault: RpcFault = "none";
  let answered = 0;
  const held = new Set<ServerResponse>();
  const sockets = new Set<Socket>();

  const forward = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (fault === "hang") {
      held.add(response);
      response.once("close", () => held.delete(response));
      return;
    }
    const now = fault;
    if (typeof now === "object") await new Promise((resolve) => setTimeout(resolve, now.delayMs));
    try {
      const upstream = await fetch(target, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: Buffer.concat(chunks),
      });
      const body = Buffer.from(await upstream.arrayBuffer());
      response.writeHead(upstream.status, { "content-type": "application/json" }).end(body);
      answered += 1;
    } catch {
      response.destroy();
    }
  };

  const server = createServer((request, response) => {
    void forward(request, response);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  let port = 0;
  await listen();
  const address = server.address();
  port = typeof address === "object" && address ? address.port : 0;
  const resetAll = () => {
    for (const socket of sockets) socket.destroy();
  };

  return {
    url: `http://127.0.0.1:${port}`,
    async setFault(next) {
      const was = fault;
      fault = next;
      if (was === "hang" && next !== "hang") for (const response of held) response.destroy();
      if (next === "refuse" && was !== "refuse") {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        resetAll();
        await closed;
      } else if (was === "refuse" && next !== "refuse") {
        await listen();
      }
    },
    get answered() {
      return answered;
    },
    get hanging() {
      return held.size;
    },
    async close() {
      for (const response of held) response.destroy();
      if (fault === "refuse") return;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      resetAll();
      await closed;
    },
  };
}
