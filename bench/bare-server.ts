// The baseline: the least a Node HTTP server can do for a request, on the same machine.
import { createServer } from "node:http";

const server = createServer((_request, response) => {
  response.statusCode = 204;
  response.end();
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  if (address && typeof address === "object")
    process.stdout.write(`listening on http://127.0.0.1:${address.port}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
