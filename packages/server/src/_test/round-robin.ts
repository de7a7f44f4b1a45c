import { once } from "node:events";
import { connect, createServer, type Socket } from "node:net";

export interface RoundRobin {
  /** `http://127.0.0.1:<port>`: what clients (and the replicas' `PUBLIC_URL`) name. */
  url: string;
  /** The replicas' public ports, in the order connections are handed out. */
  setBackends(ports: readonly number[]): void;
  /** For every connection accepted so far, in order, the index of the backend it went to. */
  readonly accepted: readonly number[];
  close(): Promise<void>;
}

/**
 * A load balancer for tests: a TCP proxy on loopback that hands each new
 * connection to the next backend in turn, as a layer-4 balancer does. A
 * request sent on a connection of its own lands on the next replica; a
 * stream stays on the replica its connection went to.
 */
export async function startRoundRobin(): Promise<RoundRobin> {
  let backends: readonly number[] = [];
  const accepted: number[] = [];
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  };
  const server = createServer((client) => {
    track(client);
    if (backends.length === 0) {
      client.destroy();
      return;
    }
    const index = accepted.length % backends.length;
    accepted.push(index);
    const upstream = connect({ host: "127.0.0.1", port: backends[index]! });
    track(upstream);
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", cut).on("close", cut);
    upstream.on("error", cut).on("close", cut);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the proxy has no port");
  return {
    url: `http://127.0.0.1:${address.port}`,
    setBackends(ports) {
      backends = [...ports];
    },
    accepted,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
