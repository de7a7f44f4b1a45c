import { randomUUID } from "node:crypto";
import { cpus, loadavg } from "node:os";
import { signInMessage } from "@mkt/protocol";
import { hashMessage, hexToBytes } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { recoverSigner } from "../packages/server/src/identity/index.ts";
import {
  type BenchDatabase,
  cpuSeconds,
  cpuSecondsBetween,
  formatRow,
  load,
  median,
  skippedSuite,
  startApiServer,
  startPostgres,
} from "./harness.ts";

const ORIGIN = "http://localhost:8080";
const MNEMONIC = "test test test test test test test test test test test junk";
const SIGN_INS = 2_000;
const SIGN_IN_CONCURRENCY = 16;
const DM_MESSAGES = 60;
/** Sign-ins per second end to end on PostgreSQL (the server, PostgreSQL and this load generator on one machine). */
const POSTGRES_SIGN_IN_TARGET = 600;

export type AccountsDatabase = "pglite" | "postgres";

/** The accounts suite once per database the server can run on. */
export const accountCases: { id: string; database: AccountsDatabase }[] = [
  { id: "accounts:pglite", database: "pglite" },
  { id: "accounts:postgres", database: "postgres" },
];

/**
 * Sign-ins per second (`POST /market/account/session`, EOA signatures, each
 * with its own nonce) and authenticated DM reads per second
 * (`GET /market/dm/messages` with a bearer session), on the API server alone
 * in its own process: on in-memory PGlite, or on a fresh, migrated database
 * in PostgreSQL (a temporary PostgreSQL 15 cluster started as CI starts one,
 * or DATABASE_URL's server), whose backends' CPU time is reported beside the
 * server's.
 *
 * Baselines, measured in the same run: for sign-ins, how many signatures
 * per second one core recovers the way the server does (libsecp256k1 in
 * WebAssembly; the ceiling a sign-in cannot beat per core); for
 * DM reads, a key-gated read without a session (`GET /market/runtime`) on
 * the same server, so the ratio is the cost of session authentication plus
 * the message query. Target: on PostgreSQL, at least POSTGRES_SIGN_IN_TARGET
 * sign-ins per second; the other figures are reported.
 */
export async function benchAccounts({
  durationSeconds,
  rounds,
  database: kind,
}: {
  durationSeconds: number;
  rounds: number;
  database: AccountsDatabase;
}) {
  const name = `Accounts on ${kind === "pglite" ? "PGlite (in memory)" : "PostgreSQL"}: sign-ins and authenticated DM reads`;
  if (kind === "pglite") {
    const { lines, summary } = await measureAccounts({ durationSeconds, rounds, database: undefined });
    return { name, lines, summary, met: true };
  }
  const postgres = await startPostgres();
  if ("skipped" in postgres) return skippedSuite(name, postgres.skipped);
  try {
    const database = await postgres.freshDatabase();
    try {
      const { lines, summary, signInsPerSecond } = await measureAccounts({
        durationSeconds,
        rounds,
        database,
      });
      const met = signInsPerSecond >= POSTGRES_SIGN_IN_TARGET;
      const verdict = `(target >= ${POSTGRES_SIGN_IN_TARGET}/s) ${met ? "MET" : "NOT MET"}`;
      return {
        name,
        lines: [
          ...lines,
          `sign-ins: ${signInsPerSecond.toFixed(0)}/s ${verdict}`,
          `PostgreSQL: ${postgres.description}`,
        ],
        summary: `${summary} ${verdict}`,
        met,
      };
    } finally {
      await database.drop();
    }
  } finally {
    await postgres.dispose();
  }
}

async function measureAccounts({
  durationSeconds,
  rounds,
  database,
}: {
  durationSeconds: number;
  rounds: number;
  database: BenchDatabase | undefined;
}): Promise<{ lines: string[]; summary: string; signInsPerSecond: number }> {
  // The website origin the envelopes are signed for; the default list is the server's own origins,
  // and this server listens on a port picked at start.
  const server = await startApiServer({
    logLevel: "warn",
    databaseUrl: database?.url,
    env: { ALLOWED_ORIGINS: ORIGIN },
  });
  const lines: string[] = [
    `1-minute load average at the start: ${loadavg()[0]!.toFixed(2)} (${cpus().length} cores)`,
  ];
  try {
    const baseUrl = server.baseUrl;
    const keyHeaders = { "api-key": server.apiKey, origin: ORIGIN, "content-type": "application/json" };

    // Sign-ins: envelopes signed beforehand (20 wallets), posted by concurrent workers.
    const wallets = Array.from({ length: 20 }, (_, index) =>
      mnemonicToAccount(MNEMONIC, { addressIndex: index }),
    );
    const envelopes = await Promise.all(
      Array.from({ length: SIGN_INS }, async (_, index) => {
        const wallet = wallets[index % wallets.length]!;
        const fields = {
          origin: ORIGIN,
          address: wallet.address.toLowerCase(),
          nonce: randomUUID(),
          expires: Date.now() + 290_000,
        };
        return JSON.stringify({
          ...fields,
          signature: await wallet.signMessage({ message: signInMessage(fields) }),
        });
      }),
    );
    const recoverStart = performance.now();
    const sample = JSON.parse(envelopes[0]!) as { signature: `0x${string}`; [k: string]: unknown };
    const hash = hexToBytes(hashMessage(signInMessage(sample as never)));
    const signature = hexToBytes(sample.signature);
    const RECOVERIES = 1_000;
    for (let i = 0; i < RECOVERIES; i++) recoverSigner(hash, signature);
    const recoveriesPerSecond = RECOVERIES / ((performance.now() - recoverStart) / 1000);

    const tokens: string[] = [];
    let next = 0;
    const latencies: number[] = [];
    const serverCpuBefore = cpuSeconds(server.pid);
    const databaseCpuBefore = await database?.backendCpu();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: SIGN_IN_CONCURRENCY }, async () => {
        while (next < envelopes.length) {
          const body = envelopes[next++]!;
          const t0 = performance.now();
          const response = await fetch(`${baseUrl}/market/account/session`, {
            method: "POST",
            headers: keyHeaders,
            body,
          });
          latencies.push(performance.now() - t0);
          if (response.status !== 200)
            throw new Error(`sign-in answered ${response.status}: ${await response.text()}`);
          tokens.push(((await response.json()) as { token: string }).token);
        }
      }),
    );
    const signInsPerSecond = SIGN_INS / ((performance.now() - started) / 1000);
    const serverCpuAfter = cpuSeconds(server.pid);
    const databaseCpu = cpuSecondsBetween(databaseCpuBefore, await database?.backendCpu());
    const perSignIn = (seconds: number | undefined) =>
      seconds === undefined ? "n/a" : `${((seconds * 1000) / SIGN_INS).toFixed(2)} ms`;
    latencies.sort((a, b) => a - b);
    const p99 = latencies[Math.floor(latencies.length * 0.99)]!;
    lines.push(
      `sign-ins (EOA, ${SIGN_INS}, ${SIGN_IN_CONCURRENCY} concurrent)   ${signInsPerSecond.toFixed(0)} /s   p99 ${p99.toFixed(1)} ms   cpu/sign-in ${perSignIn(
        serverCpuBefore === undefined || serverCpuAfter === undefined
          ? undefined
          : serverCpuAfter - serverCpuBefore,
      )}${database ? `   PostgreSQL cpu/sign-in ${perSignIn(databaseCpu)}` : ""}`,
      `baseline: ECDSA recoveries on one core (server's recovery)    ${recoveriesPerSecond.toFixed(0)} /s   ratio ${(signInsPerSecond / recoveriesPerSecond).toFixed(2)}`,
    );

    // DM reads: wallet 1 writes to wallet 0, wallet 0 reads the thread.
    const session = async (index: number) => {
      const wallet = wallets[index]!;
      const fields = {
        origin: ORIGIN,
        address: wallet.address.toLowerCase(),
        nonce: randomUUID(),
        expires: Date.now() + 60_000,
      };
      const response = await fetch(`${baseUrl}/market/account/session`, {
        method: "POST",
        headers: keyHeaders,
        body: JSON.stringify({
          ...fields,
          signature: await wallet.signMessage({ message: signInMessage(fields) }),
        }),
      });
      const { token, address } = (await response.json()) as { token: string; address: string };
      return {
        "api-key": server.apiKey,
        authorization: `Bearer ${token}`,
        origin: ORIGIN,
        "x-mkt-wallet": address,
        address,
      };
    };
    const reader = await session(0);
    const writer = await session(1);
    const { address: writerAddress, ...writerHeaders } = writer;
    for (let i = 0; i < DM_MESSAGES; i++) {
      const response = await fetch(`${baseUrl}/market/account`, {
        method: "POST",
        headers: { ...writerHeaders, "content-type": "application/json" },
        body: JSON.stringify({ kind: "dm", to: reader.address, body: `message ${i}` }),
      });
      if (!response.ok) throw new Error(`dm answered ${response.status}: ${await response.text()}`);
    }
    const { address: _reader, ...readerHeaders } = reader;
    const targets = {
      baseline: { url: `${baseUrl}/market/runtime`, headers: { "api-key": server.apiKey } },
      dm: { url: `${baseUrl}/market/dm/messages?with=${writerAddress}&limit=20`, headers: readerHeaders },
    };
    // One load shape for both: 16 connections, one request in flight on each.
    const options = (name: keyof typeof targets, seconds: number) => {
      const built = {
        ...targets[name],
        connections: 16,
        pipelining: 1,
        pid: server.pid,
        databaseCpu: database?.backendCpu,
        durationSeconds: seconds,
      };
      return built;
    };
    await load(options("baseline", 1));
    await load(options("dm", 1));
    const ratios: number[] = [];
    const dmRates: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? (["baseline", "dm"] as const) : (["dm", "baseline"] as const);
      const results: Record<string, Awaited<ReturnType<typeof load>>> = {};
      for (const name of order) {
        const result = await load(options(name, durationSeconds));
        if (result.non2xx > 0 || result.errors > 0)
          throw new Error(`${name} answered errors: ${JSON.stringify(result)}`);
        results[name] = result;
      }
      ratios.push(results["dm"]!.requestsPerSecond / results["baseline"]!.requestsPerSecond);
      dmRates.push(results["dm"]!.requestsPerSecond);
      lines.push(formatRow(`round ${round + 1} key-only read`, results["baseline"]!));
      lines.push(formatRow(`round ${round + 1} DM read (session)`, results["dm"]!));
    }
    lines.push(
      `DM reads / key-only reads: median ratio ${median(ratios).toFixed(2)} (${ratios.map((r) => r.toFixed(2)).join(", ")})`,
    );
    const summary = `sign-ins ${signInsPerSecond.toFixed(0)}/s; DM reads ${median(dmRates).toFixed(0)}/s, ${median(ratios).toFixed(2)} of key-only reads (medians)`;
    return { lines, summary, signInsPerSecond };
  } finally {
    await server.stop();
  }
}
