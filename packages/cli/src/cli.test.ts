import type { AdminScopeHead } from "@mkt/protocol";
import { describe, expect, it } from "vitest";
import { run } from "./cli.ts";
import { scopeStatus, statusTable } from "./commands/status.ts";
import type { Io } from "./io.ts";
import { progressBar } from "./render.ts";

const KEY = `mkt_${"A".repeat(43)}`;
const ADMIN_TOKEN = "operator-token-0123456789";

type Handler = (request: Request, call: number) => Response | Promise<Response>;

/** Runs the CLI in-process against a fake server; answers the exit status, the output and the requests. */
async function mkt(
  args: string[],
  handler: Handler,
  {
    env = {},
    tty = false,
    abort,
  }: { env?: Record<string, string>; tty?: boolean; abort?: AbortController } = {},
) {
  let stdout = "";
  let stderr = "";
  const requests: Request[] = [];
  const controller = abort ?? new AbortController();
  const io: Io = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env: { MKT_URL: "http://api.test", MKT_ADMIN_URL: "http://admin.test", ...env },
    stdoutIsTTY: tty,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      requests.push(request);
      return handler(request, requests.length);
    },
    signal: controller.signal,
    now: () => Date.UTC(2026, 10, 25, 12, 0, 0),
  };
  const code = await run(args, io, "1.2.3");
  return { code, stdout, stderr, requests };
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

/** An event stream that sends `frames` and then ends (the server closed it). */
const stream = (frames: string) =>
  new Response(new Blob([frames]).stream(), {
    status: 200,
    headers: { "content-type": "text/event-stream" },
  });

const ready = (id: number, resumed = false) =>
  `retry: 1\nid: ${id}\nevent: ready\ndata: ${JSON.stringify({ resumed, heartbeatSeconds: 15, windowSeconds: 600, windowEvents: 10000 })}\n\n`;

const head = (over: Partial<AdminScopeHead> = {}): AdminScopeHead => ({
  scope: "8453:registry:0xabc",
  nextBlock: 601,
  blockHash: "0x01",
  revision: 7,
  updatedAt: Date.UTC(2026, 10, 25, 11, 59, 50),
  failure: "",
  observedHead: 1100,
  observedAt: Date.UTC(2026, 10, 25, 11, 59, 50),
  webhookAudit: {},
  writer: { replica: "web-1", thisReplica: false, holdOffUntil: null },
  chainId: 8453,
  lag: 500,
  startBlock: 101,
  targetBlock: 1100,
  ...over,
});

describe("command line parsing", () => {
  it("prints the version and the overview, and refuses what is no command with status 2", async () => {
    const fail: Handler = () => {
      throw new Error("no request expected");
    };
    expect((await mkt(["--version"], fail)).stdout).toBe("1.2.3\n");
    const none = await mkt([], fail);
    expect(none.code).toBe(2);
    expect(none.stdout).toBe("");
    expect(none.stderr).toContain("Usage: mkt <command>");
    const group = await mkt(["keys"], fail);
    expect(group.code).toBe(2);
    expect(group.stderr).toContain("mkt keys needs a command: create, revoke, list, set");
    const groupHelp = await mkt(["keys", "--help"], fail);
    expect(groupHelp.code).toBe(0);
    expect(groupHelp.stdout).toContain("keys create");
    expect((await mkt(["help", "status"], fail)).stdout).toContain("Usage: mkt status [--watch]");
  });

  it("takes global flags before the command and over the environment", async () => {
    const ran = await mkt(
      ["--url", "http://flag.test", "--key", KEY, "keys", "revoke", "--json"],
      () => new Response(null, { status: 204 }),
    );
    expect(ran.code).toBe(0);
    expect(ran.requests[0]!.url).toBe("http://flag.test/keys/current");
    expect(ran.requests[0]!.method).toBe("DELETE");
    expect(ran.requests[0]!.headers.get("api-key")).toBe(KEY);
    expect(JSON.parse(ran.stdout)).toEqual({ revoked: true });
  });

  it("masks every secret it knows in what it writes to standard error", async () => {
    const ran = await mkt(["keys", "revoke"], () => json({ error: `the key ${KEY} is revoked` }, 401), {
      env: { MKT_API_KEY: KEY },
    });
    expect(ran.code).toBe(1);
    expect(ran.stderr).toBe("mkt: DELETE /keys/current answered 401: the key [redacted] is revoked\n");
  });

  it("names the server's error code, Retry-After and request id of a refusal", async () => {
    const ran = await mkt(
      ["feed", "show", "--json"],
      () =>
        json({ error: "UNAVAILABLE", message: "the feed's settings are unavailable" }, 503, {
          "retry-after": "5",
          "x-request-id": "req-1",
        }),
      { env: { MKT_ADMIN_TOKEN: ADMIN_TOKEN } },
    );
    expect(ran.code).toBe(1);
    expect(ran.stdout).toBe("");
    expect(ran.stderr).toBe(
      "mkt: GET /admin/predict/runtime answered 503: the feed's settings are unavailable (code UNAVAILABLE, retry after 5 s, request req-1)\n",
    );
    expect(ran.requests[0]!.headers.get("authorization")).toBe(`Bearer ${ADMIN_TOKEN}`);
  });
});

describe("status", () => {
  it("derives progress and state from a head and its target", () => {
    const backfilling = scopeStatus(head());
    // Blocks 101..600 of 101..1100 are indexed.
    expect(backfilling).toMatchObject({
      indexedBlock: 600,
      behind: 500,
      progress: 0.5,
      state: "backfilling",
    });
    expect(scopeStatus(head({ nextBlock: 1099, lag: 2 }))).toMatchObject({ behind: 2, state: "live" });
    expect(scopeStatus(head({ targetBlock: null, observedHead: 0 }))).toMatchObject({
      behind: null,
      progress: null,
      state: "starting",
    });
    expect(scopeStatus(head({ failure: "rpc timeout" })).state).toBe("failing");
    // Nothing indexed yet of a scope whose start block is its target: done, not divided by zero.
    expect(scopeStatus(head({ nextBlock: 101, startBlock: 101, targetBlock: 100 })).progress).toBe(1);
  });

  it("draws bars on a terminal and never a full one below 100%", () => {
    expect(progressBar(0.5, 10)).toBe("█████░░░░░  50.0%");
    expect(progressBar(0.999, 10)).toBe("█████████░  99.9%");
    expect(progressBar(1, 10)).toBe("██████████ 100.0%");
    const now = Date.UTC(2026, 10, 25, 12, 0, 0);
    const text = statusTable(
      [scopeStatus(head()), scopeStatus(head({ scope: "8453:classic:0xdef", failure: "rpc down" }))],
      {
        now,
        bars: true,
      },
    );
    const [header, first, second] = text.split("\n");
    expect(header).toMatch(/^SCOPE +INDEXED +TARGET +LAG +PROGRESS +UPDATED +WRITER +STATE$/);
    expect(first).toMatch(
      /^8453:registry:0xabc +600 +1100 +500 +██████████░░░░░░░░░░ {2}50\.0% +10 s ago +web-1 +backfilling$/,
    );
    expect(second).toMatch(/failing: rpc down$/);
  });

  it("--watch prints plain lines per interval when not on a terminal, and a failing sample is retried", async () => {
    const abort = new AbortController();
    const ran = await mkt(
      ["status", "--watch", "--interval", "1"],
      (_request, call) => {
        if (call === 1) return json({ error: "database unavailable" }, 503);
        if (call === 3) abort.abort();
        return json({ replica: "web-2", indexing: true, scopes: [head({ nextBlock: 600 + call })] });
      },
      { env: { MKT_ADMIN_TOKEN: ADMIN_TOKEN }, abort },
    );
    expect(ran.code).toBe(0);
    expect(ran.stderr).toBe(
      "mkt: GET /admin/indexer answered 503: database unavailable; trying again in 1 s\n",
    );
    expect(ran.stdout.split("\n").filter(Boolean)).toEqual([
      "2026-11-25T12:00:00.000Z 8453:registry:0xabc indexed=601 target=1100 lag=500 progress=50.1% writer=web-1 backfilling",
      "2026-11-25T12:00:00.000Z 8453:registry:0xabc indexed=602 target=1100 lag=500 progress=50.2% writer=web-1 backfilling",
    ]);
  });
});

describe("indexer handoff", () => {
  const handOffs = (released: boolean) => ({
    replica: "web-1",
    handOffs: [
      {
        scope: "8453:registry:0xabc",
        released,
        writer: released ? "web-1" : "web-2",
        takenBy: released ? "web-2" : null,
        holdOffUntil: released ? Date.UTC(2026, 10, 25, 12, 0, 30) : null,
      },
    ],
  });

  it("posts one scope's hand-off with the hold-off and names the replica that took it", async () => {
    const ran = await mkt(
      ["indexer", "handoff", "8453:registry:0xabc", "--hold-off", "60"],
      () => json(handOffs(true)),
      { env: { MKT_ADMIN_TOKEN: ADMIN_TOKEN } },
    );
    expect(ran.code).toBe(0);
    expect(ran.requests[0]!.method).toBe("POST");
    expect(ran.requests[0]!.url).toBe("http://admin.test/admin/indexer/8453%3Aregistry%3A0xabc/handoff");
    expect(await ran.requests[0]!.json()).toEqual({ holdOffSeconds: 60 });
    const [, header, row] = ran.stdout.split("\n");
    expect(header).toMatch(/^SCOPE +HAND-OFF +WRITER BEFORE +TAKEN BY +STAYS AWAY UNTIL$/);
    expect(row).toMatch(/^8453:registry:0xabc +released +web-1 +web-2 +2026-11-25T12:00:30\.000Z$/);
  });

  it("hands off every scope without a scope argument, and fails when the replica wrote none", async () => {
    const ran = await mkt(["indexer", "handoff", "--json"], () => json(handOffs(false)), {
      env: { MKT_ADMIN_TOKEN: ADMIN_TOKEN },
    });
    expect(ran.requests[0]!.url).toBe("http://admin.test/admin/indexer/handoff");
    expect(await ran.requests[0]!.json()).toEqual({});
    expect(JSON.parse(ran.stdout)).toEqual(handOffs(false));
    expect(ran.code).toBe(1);
    expect(ran.stderr).toBe("mkt: replica web-1 writes no scope: nothing was handed off\n");
  });
});

describe("tail", () => {
  it("reconnects after the stream closes, sending the last id as Last-Event-ID", async () => {
    const ran = await mkt(
      ["tail", "market", "--json", "--count", "4"],
      (_request, call) =>
        call === 1
          ? stream(`${ready(10)}id: 11\nevent: head\ndata: {"nextBlock":5}\n\n: heartbeat\n\n`)
          : stream(
              `${ready(11, true)}id: 13\nevent: position\ndata: {}\n\nid: 14\nevent: release\ndata: {"releaseId":"r1"}\n\n`,
            ),
      { env: { MKT_API_KEY: KEY } },
    );
    expect(ran.code).toBe(0);
    expect(ran.requests.map((request) => request.headers.get("last-event-id"))).toEqual([null, "11"]);
    expect(ran.requests[0]!.headers.get("accept")).toBe("text/event-stream");
    expect(
      ran.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line)),
    ).toEqual([
      {
        event: "ready",
        id: "10",
        data: { resumed: false, heartbeatSeconds: 15, windowSeconds: 600, windowEvents: 10000 },
      },
      { event: "head", id: "11", data: { nextBlock: 5 } },
      {
        event: "ready",
        id: "11",
        data: { resumed: true, heartbeatSeconds: 15, windowSeconds: 600, windowEvents: 10000 },
      },
      { event: "position", id: "13", data: {} },
      { event: "release", id: "14", data: { releaseId: "r1" } },
    ]);
    expect(ran.stderr).toBe("mkt: the stream closed; reconnecting in 0 s (resuming after event 11)\n");
  });

  it("backs off on a 503 for as long as Retry-After asks, and stops at a refusal reconnecting cannot help", async () => {
    const ran = await mkt(
      ["tail", "predict", "--last-event-id", "40"],
      (_request, call) =>
        call === 1
          ? json({ error: "FEED_DISABLED", message: "the prediction feed is switched off" }, 503, {
              "retry-after": "0",
            })
          : json({ error: "API key missing, malformed or invalid" }, 401),
      { env: { MKT_API_KEY: KEY } },
    );
    expect(ran.code).toBe(1);
    expect(ran.requests.map((request) => [request.url, request.headers.get("last-event-id")])).toEqual([
      ["http://api.test/predict/v9/stream", "40"],
      ["http://api.test/predict/v9/stream", "40"],
    ]);
    expect(ran.stderr.split("\n")).toEqual([
      expect.stringMatching(
        /^mkt: GET \/predict\/v9\/stream answered 503: the prediction feed is switched off \(code FEED_DISABLED, retry after 0 s\); reconnecting in \d+ s \(resuming after event 40\)$/,
      ),
      "mkt: GET /predict/v9/stream answered 401: API key missing, malformed or invalid",
      "",
    ]);
  });

  it("ends with status 1 when the server ends the stream for good", async () => {
    const ran = await mkt(
      ["tail", "chat", "lunar-comets"],
      () => stream(`${ready(3)}event: end\ndata: {"reason":"key-revoked"}\n\n`),
      { env: { MKT_API_KEY: KEY } },
    );
    expect(ran.code).toBe(1);
    expect(ran.requests[0]!.url).toBe("http://api.test/classic/chat/lunar-comets/stream");
    expect(ran.stdout).toMatch(/ready .*\n.*end +\{"reason":"key-revoked"\}\n$/);
    expect(ran.stderr).toBe("mkt: the server ended the stream: key-revoked\n");
  });
});
