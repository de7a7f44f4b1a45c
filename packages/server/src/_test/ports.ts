import { createServer } from "node:net";

/**
 * A loopback port nobody listens on now, for a server whose `PUBLIC_URL` must name its own port
 * before it starts (the URL a browser is sent to).
 */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
