import { readFileSync } from "node:fs";
import { type ClientRequest, request as httpRequest } from "node:http";
import { type ReleaseActionInput, releaseActionMessage } from "@mkt/protocol";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { startApiServer } from "./harness.ts";

/**
 * Clients one replica must hold with an event reaching all of them within a second at p99
 * (docs/benchmarks.md, Live updates: SSE clients on one replica).
 */
export const SSE_CLIENTS_TARGET = 10_000;
const DEADLINE_MS = 1_000;

/** Resident memory of a process in bytes, from /proc (undefined without procfs). */
function residentBytes(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

interface Client {
  request: ClientRequest;
  /** When the awaited event arrived, per round. */
  arrived: number | undefined;
}

/**
 * Concurrent live-update clients on one replica (`GET /market/live`): the API
 * server on in-memory PGlite in its own process, `clients` SSE connections
 * from this process (one socket each), then `rounds` public release changes
 * (a signed `reschedule` through `POST /market/releases`); each round's
 * latency is from sending the action to each client reading its `release`
 * event. Reported: the clients held, the p50/p99/max latency per round, how
 * many missed the one-second deadline, and the server's resident memory per
 * client (RSS with every client open minus RSS before the first, over the
 * clients). The bench process shares the machine's cores with the server.
 */
export async function benchSse({ clients = SSE_CLIENTS_TARGET, rounds = 5 } = {}) {
  const server = await startApiServer({
    logLevel: "warn",
    // Every client is on loopback, one client network: its cap is lifted with the others.
    env: {
      MKT_MAX_STREAMS: String(clients + 10),
      MKT_MAX_STREAMS_PER_KEY: String(clients + 10),
      MKT_MAX_STREAMS_PER_CLIENT: String(clients + 10),
    },
  });
  const lines: string[] = [];
  const open: Client[] = [];
  try {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const act = async (action: ReleaseActionInput) => {
      const fields = {
        address: wallet.address.toLowerCase(),
        nonce: crypto.randomUUID(),
        expires: Date.now() + 60_000,
      };
      const signature = await wallet.signMessage({ message: releaseActionMessage({ ...fields, action }) });
      const response = await fetch(`${server.baseUrl}/market/releases`, {
        method: "POST",
        headers: { "api-key": server.apiKey, "content-type": "application/json" },
        body: JSON.stringify({ ...fields, action, signature }),
      });
      if (!response.ok) throw new Error(`${action.kind}: ${response.status} ${await response.text()}`);
      return (await response.json()) as { id: string; revision: number };
    };
    const draft = await act({
      kind: "create",
      draft: { name: "Bench owls", symbol: "OWL", image: "https://img.mkt.test/owl.png", design: {} },
    });

    // Settle the server before measuring its memory.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const before = residentBytes(server.pid);
    const url = new URL(`${server.baseUrl}/market/live`);
    const connect = () =>
      new Promise<Client>((resolve, reject) => {
        const client: Client = {
          request: httpRequest(url, {
            agent: false,
            headers: { "api-key": server.apiKey, accept: "text/event-stream" },
          }),
          arrived: undefined,
        };
        client.request.on("error", reject);
        client.request.on("response", (response) => {
          if (response.statusCode !== 200) {
            reject(new Error(`stream refused: ${response.statusCode}`));
            return;
          }
          let ready = false;
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => {
            if (!ready && chunk.includes("event: ready")) {
              ready = true;
              resolve(client);
            }
            if (client.arrived === undefined && chunk.includes("event: release"))
              client.arrived = performance.now();
          });
        });
        client.request.end();
      });
    const opening = performance.now();
    for (let i = 0; i < clients; i += 250) {
      const batch = await Promise.all(Array.from({ length: Math.min(250, clients - i) }, connect));
      open.push(...batch);
    }
    const openSeconds = (performance.now() - opening) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const after = residentBytes(server.pid);
    const perClient =
      before !== undefined && after !== undefined ? (after - before) / open.length : undefined;
    lines.push(
      `${open.length} clients open in ${openSeconds.toFixed(1)} s; server RSS ${((before ?? 0) / 2 ** 20).toFixed(0)} MiB before, ${((after ?? 0) / 2 ** 20).toFixed(0)} MiB with every client: ${perClient === undefined ? "n/a" : `${(perClient / 1024).toFixed(1)} KiB`} per client`,
    );

    let revision = draft.revision;
    const p99s: number[] = [];
    let late = 0;
    for (let round = 1; round <= rounds; round++) {
      for (const client of open) client.arrived = undefined;
      const action: ReleaseActionInput =
        revision === 1
          ? { kind: "announce", releaseId: draft.id, revision, launchAt: Date.now() + 86_400_000 }
          : {
              kind: "reschedule",
              releaseId: draft.id,
              revision,
              launchAt: Date.now() + 86_400_000 + revision,
            };
      const sent = performance.now();
      revision = (await act(action)).revision;
      // Wait until every client has the event, or five seconds.
      const deadline = sent + 5_000;
      while (open.some((client) => client.arrived === undefined) && performance.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 10));
      const latencies = open
        .map((client) => (client.arrived === undefined ? Number.POSITIVE_INFINITY : client.arrived - sent))
        .sort((a, b) => a - b);
      const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
      const missed = latencies.filter((ms) => ms > DEADLINE_MS).length;
      late += missed;
      p99s.push(at(0.99));
      lines.push(
        `round ${round}: p50 ${at(0.5).toFixed(0)} ms, p99 ${at(0.99).toFixed(0)} ms, max ${at(1 - 1e-9).toFixed(0)} ms; ${missed} of ${open.length} after ${DEADLINE_MS} ms`,
      );
    }
    const p99 = [...p99s].sort((a, b) => a - b)[Math.floor(p99s.length / 2)]!;
    const met = open.length >= SSE_CLIENTS_TARGET && p99 <= DEADLINE_MS;
    return {
      name: `Live updates: ${open.length} SSE clients on one replica (target ${SSE_CLIENTS_TARGET.toLocaleString("en-US")} within ${DEADLINE_MS} ms at p99)`,
      lines,
      summary: `${open.length} clients, median p99 ${p99.toFixed(0)} ms, ${perClient === undefined ? "n/a" : `${(perClient / 1024).toFixed(1)} KiB`}/client, ${late} late deliveries${met ? "" : " (not met)"}`,
      met,
    };
  } finally {
    for (const client of open) client.request.destroy();
    await server.stop();
  }
}
