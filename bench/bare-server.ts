// The baseline: the least a Node HTTP server can do for a request, on the same machine. It answers
// every request with the recorded answer (JSON: status, raw headers in their
// order and spelling, base64 body), in the file its first argument names: the same bytes the API
// server answered, as fast as Node can.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const recorded = JSON.parse(readFileSync(process.argv[2] ?? "", "utf8")) as {
  status: number;
  headers: string[];
  body: string;
};
const body = Buffer.from(recorded.body, "base64");
const server = createServer((_request, response) => {
  // A flat [name, value, name, value, …] list: written as given, without a header object.
  response.writeHead(recorded.status, recorded.headers);
  response.end(body);
});
// Keep-Alive's timeout is part of the answer: the same as the API server's.
const keepAlive = /timeout=(\d+)/.exec(process.argv[3] ?? "");
if (keepAlive) server.keepAliveTimeout = Number(keepAlive[1]) * 1000;
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  if (address && typeof address === "object")
    process.stdout.write(`listening on http://127.0.0.1:${address.port}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
