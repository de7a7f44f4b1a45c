import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { DEV_MNEMONIC, deriveDevAccounts } from "@mkt/chain";
import { apiKeyPattern } from "@mkt/protocol";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_ORIGIN } from "../_test/accounts.ts";
import { setupApp, TEST_ADMIN_TOKEN, type TestApp } from "../_test/app.ts";
import { setupDevChain, type TestChain } from "../_test/dev-chain.ts";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const run = promisify(execFile);

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Lines a running child wrote so far, and a wait for the next one that matches. */
function lines(child: ChildProcess, stream: "stdout" | "stderr") {
  const seen: string[] = [];
  let partial = "";
  let wake: () => void = () => {};
  child[stream]!.setEncoding("utf8").on("data", (chunk: string) => {
    const parts = (partial + chunk).split("\n");
    partial = parts.pop() ?? "";
    seen.push(...parts);
    wake();
  });
  let taken = 0;
  return {
    seen,
    async next(match: (line: string) => boolean): Promise<string> {
      for (;;) {
        for (let i = taken; i < seen.length; i++) {
          if (match(seen[i]!)) {
            taken = i + 1;
            return seen[i]!;
          }
        }
        if (child.exitCode !== null) throw new Error(`mkt exited (${child.exitCode}) before the line came`);
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    },
  };
}

/**
 * The `mkt` command installed the way an operator installs it: `npm pack` of the workspace, then
 * `npm install -g` of the tarball into a fresh prefix, run as a child process under plain node,
 * against a listening test server with its operator listener.
 */
describe("the mkt command line against a live server", () => {
  let chain: TestChain;
  let t: TestApp;
  let publicUrl: string;
  let adminUrl: string;
  let bin: string;
  let prefix: string;
  /** Every secret a test made or used, and everything the CLI wrote to standard error. */
  const secrets = new Set<string>([TEST_ADMIN_TOKEN]);
  const stderrs: string[] = [];
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    prefix = mkdtempSync(join(tmpdir(), "mkt-cli-"));
    const packed = await run("npm", ["pack", "-w", "@mkt/cli", "--pack-destination", prefix, "--json"], {
      cwd: root,
    });
    const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
    await run(
      "npm",
      [
        "install",
        "-g",
        "--prefix",
        join(prefix, "global"),
        "--offline",
        "--no-audit",
        "--no-fund",
        join(prefix, filename),
      ],
      { cwd: prefix },
    );
    bin = join(prefix, "global", "bin", "mkt");
    chain = await setupDevChain(8453);
    t = await setupApp({ deployments: [chain.deployment] });
    ({ publicUrl, adminUrl } = await t.app.listen());
    await syncAll();
  }, 240_000);

  afterAll(async () => {
    for (const child of children) child.kill("SIGKILL");
    t.app.server.server.closeAllConnections();
    await t?.close();
    await chain?.close();
    rmSync(prefix, { recursive: true, force: true });
  });

  const syncAll = async () => {
    for (const indexer of t.app.services.indexer!.indexers) await indexer.syncOnce();
  };

  /** The CLI's environment: only what a test gives it, so the machine's MKT_* never leak in. */
  const environment = (env: Record<string, string> = {}) => ({
    PATH: process.env["PATH"] ?? "",
    MKT_URL: publicUrl,
    MKT_ADMIN_URL: adminUrl,
    ...env,
  });

  const mkt = (args: string[], env: Record<string, string> = {}): Promise<Ran> =>
    new Promise((resolve, reject) => {
      const child = spawn(bin, args, { env: environment(env) });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        stdout += chunk;
      });
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
      });
      child.on("error", reject);
      child.on("close", (code) => {
        stderrs.push(stderr);
        resolve({ code, stdout, stderr });
      });
    });

  /** Exactly one JSON document on standard output. */
  const document = (ran: Ran) => {
    expect(ran.code, ran.stderr).toBe(0);
    return JSON.parse(ran.stdout) as Record<string, unknown>;
  };

  const admin = { MKT_ADMIN_TOKEN: TEST_ADMIN_TOKEN };
  const newKey = async () => {
    const created = document(
      await mkt(["keys", "create", "--description", "cli e2e", "--email", "cli@example.com", "--json"]),
    );
    secrets.add(created["key"] as string);
    return created as { id: string; key: string; multiplier: number; createdAt: string };
  };
  const get = (path: string, headers: Record<string, string>) => fetch(`${publicUrl}${path}`, { headers });

  it("prints help for the whole tool and for each command", async () => {
    const overview = await mkt(["--help"]);
    expect(overview.code).toBe(0);
    expect(overview.stderr).toBe("");
    for (const command of [
      "keys create",
      "keys revoke",
      "status",
      "sign-in",
      "tail",
      "feed set",
      "games unboxing",
    ])
      expect(overview.stdout).toContain(`  ${command} `);
    const help = await mkt(["keys", "create", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: mkt keys create --description <text> --email <address>");
    expect(help.stdout).toContain("$ mkt keys create");
    // --json applies to help too: one document.
    const json = document(await mkt(["tail", "--help", "--json"]));
    expect(json["help"]).toContain("Last-Event-ID");
  });

  it("keys create --json prints one document whose key works at once; keys revoke ends it", async () => {
    const created = await newKey();
    expect(created.key).toMatch(apiKeyPattern);
    expect(created.multiplier).toBe(1);
    expect((await get("/market/runtime", { "api-key": created.key })).status).toBe(200);

    const revoked = await mkt(["keys", "revoke", "--json"], { MKT_API_KEY: created.key });
    expect(document(revoked)).toEqual({ revoked: true });
    expect((await get("/market/runtime", { "api-key": created.key })).status).toBe(401);

    // Revoking it again: the server's 401, on standard error only.
    const again = await mkt(["keys", "revoke", "--json"], { MKT_API_KEY: created.key });
    expect(again.code).toBe(1);
    expect(again.stdout).toBe("");
    expect(again.stderr).toContain("DELETE /keys/current answered 401");
  });

  it("status --json reports each scope's head, target and progress from the operator listener", async () => {
    const scopes = t.app.services.indexer!.scopes;
    const status = document(await mkt(["status", "--json"], admin)) as {
      scopes: Array<Record<string, unknown>>;
    };
    const listed = (await (
      await fetch(`${adminUrl}/admin/indexer`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })
    ).json()) as { scopes: Array<{ scope: string; nextBlock: number; observedHead: number }> };
    expect(status.scopes.map((scope) => scope["scope"])).toEqual(scopes.map((scope) => scope.id).sort());
    for (const scope of status.scopes) {
      const head = listed.scopes.find((candidate) => candidate.scope === scope["scope"])!;
      const projection = scopes.find((candidate) => candidate.id === scope["scope"])!;
      expect(scope).toMatchObject({
        nextBlock: head.nextBlock,
        indexedBlock: head.nextBlock - 1,
        startBlock: Number(projection.startBlock),
        // These scopes follow the newest block, and the indexer has caught up with it.
        targetBlock: head.observedHead,
        behind: 0,
        lag: 0,
        progress: 1,
        state: "live",
        failure: "",
      });
    }

    // A chain 1,000 blocks ahead of the registry scope: backfilling, its progress the share indexed.
    const registry = scopes.find((scope) => scope.id.includes(":registry:"))!;
    const head = listed.scopes.find((scope) => scope.scope === registry.id)!;
    const observed = head.observedHead + 1000;
    await t.db.withConnection((c) =>
      c.query("UPDATE indexer_heads SET observed_head = $2 WHERE scope = $1", [registry.id, observed]),
    );
    const behind = document(await mkt(["status", "--json"], admin)) as {
      scopes: Array<Record<string, unknown>>;
    };
    const start = Number(registry.startBlock);
    expect(behind.scopes.find((scope) => scope["scope"] === registry.id)).toMatchObject({
      targetBlock: observed,
      lag: 1000,
      behind: 1000,
      progress: (head.nextBlock - start) / (observed - start + 1),
      state: "backfilling",
    });
    // Not on a terminal: a table with the percentage, no bar glyphs.
    const table = await mkt(["status"], admin);
    expect(table.code).toBe(0);
    const line = table.stdout.split("\n").find((row) => row.startsWith(registry.id))!;
    const percent = `${(Math.floor(((head.nextBlock - start) / (observed - start + 1)) * 1000) / 10).toFixed(1)}%`;
    expect(line).toContain(percent);
    expect(line).toContain("backfilling");
    expect(table.stdout).not.toContain("█");
    await syncAll();
  });

  it("sign-in --json gives a market session and a classic bearer token that work", async () => {
    const { key } = await newKey();
    const market = document(
      await mkt(["sign-in", "--dev-wallet", "3", "--origin", TEST_ORIGIN, "--json"], { MKT_API_KEY: key }),
    ) as { surface: string; address: string; token: string; expiresAt: string; origin: string };
    secrets.add(market.token);
    const devAccounts = deriveDevAccounts(DEV_MNEMONIC, 4);
    expect(market).toMatchObject({
      surface: "market",
      address: devAccounts[3]!.address.toLowerCase(),
      origin: TEST_ORIGIN,
    });
    expect(Date.parse(market.expiresAt)).toBeGreaterThan(Date.now() + 29 * 24 * 3600_000);
    const state = await get("/market/account/session", {
      "api-key": key,
      authorization: `Bearer ${market.token}`,
      origin: TEST_ORIGIN,
      "x-mkt-wallet": market.address,
    });
    expect(state.status).toBe(200);

    // A private key from the environment, for the classic API's bearer sign-in.
    const privateKey = generatePrivateKey();
    secrets.add(privateKey);
    const classic = document(
      await mkt(["sign-in", "--surface", "classic", "--json"], {
        MKT_API_KEY: key,
        MKT_PRIVATE_KEY: privateKey,
      }),
    ) as { surface: string; address: string; token: string; expiresAt: string };
    secrets.add(classic.token);
    expect(classic).toMatchObject({
      surface: "classic",
      address: privateKeyToAccount(privateKey).address.toLowerCase(),
    });
    const session = await get("/classic/auth/session", {
      "api-key": key,
      authorization: `Bearer ${classic.token}`,
    });
    expect(session.status).toBe(200);
    expect(((await session.json()) as { address: string }).address).toBe(classic.address);

    // Without a wallet: a usage error naming both ways to give one.
    const walletless = await mkt(["sign-in", "--json"], { MKT_API_KEY: key });
    expect(walletless.code).toBe(2);
    expect(walletless.stdout).toBe("");
    expect(walletless.stderr).toContain("--dev-wallet <index>");
    expect(walletless.stderr).toContain("MKT_PRIVATE_KEY");
  });

  it("tail prints events as they come and resumes with Last-Event-ID after a dropped connection", async () => {
    const { key } = await newKey();
    const child = spawn(bin, ["tail", "market", "--json"], { env: environment({ MKT_API_KEY: key }) });
    children.push(child);
    const out = lines(child, "stdout");
    const err = lines(child, "stderr");
    const event = async (name: string) =>
      JSON.parse(await out.next((line) => (JSON.parse(line) as { event: string }).event === name)) as {
        event: string;
        id?: string;
        data: Record<string, unknown>;
      };

    expect((await event("ready")).data["resumed"]).toBe(false);
    await chain.mine();
    await syncAll();
    const first = await event("head");
    expect(first.id).toMatch(/^\d+$/);

    // The server drops every connection; the CLI says so and reconnects after the server's retry delay.
    t.app.server.server.closeAllConnections();
    const note = await err.next((line) => line.includes("reconnecting"));
    expect(note).toContain(`resuming after event ${first.id}`);
    // Indexed while the CLI is away or back: either way it arrives, live or replayed.
    await chain.mine();
    await syncAll();
    const resumed = await event("ready");
    expect(resumed.data["resumed"]).toBe(true);
    const second = await event("head");
    expect(Number(second.id)).toBeGreaterThan(Number(first.id));
    expect(second.data["nextBlock"]).toBe((first.data["nextBlock"] as number) + 1);

    // Every line of standard output is one JSON document; Ctrl-C ends the command with status 0.
    for (const line of out.seen) expect(() => JSON.parse(line)).not.toThrow();
    child.kill("SIGINT");
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
    stderrs.push(err.seen.join("\n"));
  });

  it("tail account follows a session's private events: a DM sent to its wallet", async () => {
    const { key } = await newKey();
    const signIn = async (index: number) => {
      const session = document(
        await mkt(["sign-in", "--dev-wallet", String(index), "--origin", TEST_ORIGIN, "--json"], {
          MKT_API_KEY: key,
        }),
      ) as { address: string; token: string };
      secrets.add(session.token);
      return session;
    };
    const reader = await signIn(5);
    const writer = await signIn(6);
    const child = spawn(
      bin,
      ["tail", "account", "--wallet", reader.address, "--origin", TEST_ORIGIN, "--json", "--count", "3"],
      { env: environment({ MKT_API_KEY: key, MKT_SESSION_TOKEN: reader.token }) },
    );
    children.push(child);
    const out = lines(child, "stdout");
    await out.next((line) => line.includes('"event":"ready"'));
    const sent = await fetch(`${publicUrl}/market/account`, {
      method: "POST",
      headers: {
        "api-key": key,
        authorization: `Bearer ${writer.token}`,
        origin: TEST_ORIGIN,
        "x-mkt-wallet": writer.address,
        "content-type": "application/json",
      },
      body: JSON.stringify({ kind: "dm", to: reader.address, body: "hello from the cli test" }),
    });
    expect(sent.status).toBe(200);
    const dm = JSON.parse(await out.next((line) => line.includes('"event":"dm"'))) as {
      data: { from: string };
    };
    expect(dm.data.from).toBe(writer.address);
    const unread = JSON.parse(await out.next((line) => line.includes('"event":"unread"'))) as {
      data: unknown;
    };
    expect(unread.data).toEqual({ messages: 1, threads: 1 });
    // --count 3: ready, dm, unread; then the command ends by itself.
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
  });

  it("tail --count stops after that many events", async () => {
    const { key } = await newKey();
    const ran = await mkt(["tail", "market", "--count", "1"], { MKT_API_KEY: key });
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/^\d\d:\d\d:\d\d\.\d{3} +ready +#\d+ +\{"resumed":false/);
    expect(ran.stdout.trim().split("\n")).toHaveLength(1);
  });

  it("operator commands change what the API answers", async () => {
    const created = await newKey();
    const set = document(await mkt(["keys", "set", created.id, "--multiplier", "7", "--json"], admin));
    expect(set).toMatchObject({ id: created.id, multiplier: 7, revoked: false });
    const listed = document(await mkt(["keys", "list", "--all", "--json"], admin)) as {
      keys: Array<{ id: string; multiplier: number }>;
    };
    expect(listed.keys.find((key) => key.id === created.id)?.multiplier).toBe(7);
    // The budget headers of a read show the multiplied limit (100 reads a minute, times 7).
    const read = await get("/market/runtime", { "api-key": created.key });
    expect(read.headers.get("ratelimit-limit")).toBe("700");

    const unboxing = () =>
      get("/classic/unboxing-disallowed", { "api-key": created.key }).then(
        async (response) => ((await response.json()) as { disallowed: boolean }).disallowed,
      );
    expect(await unboxing()).toBe(false);
    expect(document(await mkt(["games", "unboxing", "--disallowed", "true", "--json"], admin))).toEqual({
      disallowed: true,
    });
    expect(await unboxing()).toBe(true);
    await mkt(["games", "unboxing", "--disallowed", "false"], admin);

    const revoked = document(await mkt(["keys", "revoke", "--id", created.id, "--json"], admin));
    expect(revoked).toMatchObject({ id: created.id, revoked: true });
    expect((await get("/market/runtime", { "api-key": created.key })).status).toBe(401);

    // This deployment follows no prediction chain: the server's 409, as a failure with its words.
    const feed = await mkt(["feed", "set", "--enabled", "false", "--json"], admin);
    expect(feed.code).toBe(1);
    expect(feed.stdout).toBe("");
    expect(feed.stderr).toContain("PUT /admin/predict/runtime answered 409");
  });

  it("refuses bad input and missing credentials with a message, a non-zero status and nothing on stdout", async () => {
    const cases: Array<{ args: string[]; env?: Record<string, string>; code: number; says: string }> = [
      {
        args: ["keys", "create", "--email", "a@example.com", "--json"],
        code: 2,
        says: "--description <text> is required",
      },
      {
        args: ["keys", "create", "--description", "x", "--email", "not-an-address", "--json"],
        code: 2,
        says: "email must be a valid e-mail address",
      },
      { args: ["keys", "revoke", "--json"], code: 2, says: "needs an API key" },
      {
        args: ["keys", "revoke", "--json"],
        env: { MKT_API_KEY: "not-a-key" },
        code: 2,
        says: "is not an mkt key",
      },
      { args: ["status", "--json"], code: 2, says: "MKT_ADMIN_TOKEN" },
      {
        args: ["status", "--json"],
        env: { MKT_ADMIN_TOKEN: "wrong-operator-token-0123456789" },
        code: 1,
        says: "GET /admin/indexer answered 401",
      },
      {
        args: ["keys", "set", "key_x", "--json"],
        env: admin,
        code: 2,
        says: "give --multiplier, --revoked or --first-party",
      },
      {
        args: ["keys", "set", "key_x", "--revoked", "maybe", "--json"],
        env: admin,
        code: 2,
        says: "true or false",
      },
      { args: ["tail", "nowhere", "--json"], code: 2, says: 'unknown stream "nowhere"' },
      { args: ["tail", "market", "--json"], code: 2, says: "needs an API key" },
      { args: ["keys", "create", "--bogus", "--json"], code: 2, says: "Unknown option '--bogus'" },
      { args: ["nothing", "--json"], code: 2, says: 'unknown command "nothing"' },
      { args: ["status", "--json", "--url", "ftp://x"], env: admin, code: 2, says: "must be an http(s) URL" },
      {
        args: ["status", "--json", "--admin-url", "http://127.0.0.1:9"],
        env: admin,
        code: 1,
        says: "cannot reach http://127.0.0.1:9",
      },
    ];
    for (const { args, env, code, says } of cases) {
      const ran = await mkt(args, env);
      expect({ args, code: ran.code, stdout: ran.stdout }).toEqual({ args, code, stdout: "" });
      expect(ran.stderr).toContain(says);
    }
  });

  it("never writes a key, token or private key to standard error, nor the server to its logs", () => {
    expect(secrets.size).toBeGreaterThan(5);
    const written = stderrs.join("\n");
    const logs = t.logs.text();
    for (const secret of secrets) {
      expect(written).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
  });
});
