import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import proxyAddr from "@fastify/proxy-addr";
import { afterEach, describe, expect, it } from "vitest";
import { signEnvelope, TEST_ORIGIN, testWallet } from "../_test/accounts.ts";
import { setupApp } from "../_test/app.ts";
import { ConfigError, defaultReplicaId, loadConfig, REPLICA_ID_PATTERN } from "./index.ts";

describe("configuration", () => {
  it("applies the documented defaults", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: "127.0.0.1",
      port: 8080,
      database: { kind: "pglite", dataDir: ".mkt/db" },
      admin: { host: "127.0.0.1", port: 8081, token: undefined },
      allowedOrigins: ["http://localhost:8080", "http://127.0.0.1:8080"],
      demo: true,
      demoRate: 1,
      logLevel: "info",
      logFormat: "json",
      publicUrl: "http://127.0.0.1:8080",
      secureCookies: false,
      trustProxy: false,
      publicReads: "key",
    });
  });

  it("reads MKT_DEMO_RATE as a positive multiple of the demo's usual rate", () => {
    expect(loadConfig({ MKT_DEMO_RATE: "10" }).demoRate).toBe(10);
    expect(loadConfig({ MKT_DEMO_RATE: "0.5" }).demoRate).toBe(0.5);
    expect(loadConfig({ MKT_DEMO_RATE: "100" }).demoRate).toBe(100);
  });

  it.each([
    ["0", "MKT_DEMO_RATE: must be above 0"],
    ["-2", "MKT_DEMO_RATE: must be a positive number such as 10 or 0.5"],
    ["ten", "MKT_DEMO_RATE: must be a positive number such as 10 or 0.5"],
    ["1e2", "MKT_DEMO_RATE: must be a positive number such as 10 or 0.5"],
    ["101", "MKT_DEMO_RATE: must be at most 100"],
  ])("rejects MKT_DEMO_RATE=%s with a message naming it", (value, message) => {
    expect(() => loadConfig({ MKT_DEMO_RATE: value })).toThrow(message);
  });

  it("names the replica MKT_REPLICA_ID, else <hostname>-<pid>", () => {
    expect(loadConfig({ MKT_REPLICA_ID: "web-1.eu_west" }).replicaId).toBe("web-1.eu_west");
    expect(loadConfig({}, { defaultReplicaId: "host-7" }).replicaId).toBe("host-7");
    expect(loadConfig({}).replicaId).toBe(defaultReplicaId(hostname(), process.pid));
    expect(defaultReplicaId("api-3.internal", 4242)).toBe("api-3.internal-4242");
    // What the pattern refuses is replaced, and a long host name is shortened to fit 48 characters.
    expect(defaultReplicaId("_my host!", 9)).toBe("my-host--9");
    const long = defaultReplicaId("h".repeat(80), 123456);
    expect(long).toBe(`${"h".repeat(41)}-123456`);
    expect(REPLICA_ID_PATTERN.test(long)).toBe(true);
    expect(defaultReplicaId("...", 5)).toBe("mkt-5");
  });

  it.each([["-web"], ["web 1"], ["web/1"], ["r".repeat(49)], ["wéb"]])(
    "rejects MKT_REPLICA_ID=%s with a message naming it",
    (value) => {
      expect(() => loadConfig({ MKT_REPLICA_ID: value })).toThrow(
        "MKT_REPLICA_ID: must be 1-48 letters, digits, '.', '_' or '-', starting with a letter or digit",
      );
    },
  );

  it("runs the indexer unless MKT_INDEXER=0, and accepts only 0 or 1", () => {
    expect(loadConfig({}).indexing).toBe(true);
    expect(loadConfig({ MKT_INDEXER: "1" }).indexing).toBe(true);
    expect(loadConfig({ MKT_INDEXER: "0" }).indexing).toBe(false);
    for (const value of ["off", "false", "2", "yes"])
      expect(() => loadConfig({ MKT_INDEXER: value })).toThrow("MKT_INDEXER: must be 0 (indexing off) or 1");
  });

  it("reads READYZ_REQUIRE_CHAIN as 0 or 1, off by default", () => {
    expect(loadConfig({}).readyzRequireChain).toBe(false);
    expect(loadConfig({ READYZ_REQUIRE_CHAIN: "0" }).readyzRequireChain).toBe(false);
    expect(loadConfig({ READYZ_REQUIRE_CHAIN: "1" }).readyzRequireChain).toBe(true);
    for (const value of ["true", "yes", "2"])
      expect(() => loadConfig({ READYZ_REQUIRE_CHAIN: value })).toThrow(
        "READYZ_REQUIRE_CHAIN: must be 0 or 1",
      );
  });

  it("reads DATABASE_URL, PUBLIC_URL, TRUST_PROXY and PUBLIC_READS", () => {
    expect(loadConfig({ DATABASE_URL: "memory://" }).database).toEqual({
      kind: "pglite",
      dataDir: undefined,
    });
    expect(loadConfig({ DATABASE_URL: "postgres://u@h/db" }).database).toEqual({
      kind: "postgres",
      url: "postgres://u@h/db",
    });
    const https = loadConfig({ PUBLIC_URL: "https://api.example.com/" });
    expect(https.publicUrl).toBe("https://api.example.com");
    expect(https.secureCookies).toBe(true);
    expect(loadConfig({ TRUST_PROXY: "2" }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: "10.0.0.0/8, 127.0.0.1" }).trustProxy).toEqual([
      "10.0.0.0/8",
      "127.0.0.1",
    ]);
    expect(loadConfig({ PUBLIC_READS: "open" }).publicReads).toBe("open");
  });

  it("writes pretty logs by default on a terminal and JSON elsewhere; LOG_FORMAT overrides", () => {
    expect(loadConfig({}).logFormat).toBe("json");
    expect(loadConfig({}, { stdoutIsTerminal: false }).logFormat).toBe("json");
    expect(loadConfig({}, { stdoutIsTerminal: true }).logFormat).toBe("pretty");
    expect(loadConfig({ LOG_FORMAT: "json" }, { stdoutIsTerminal: true }).logFormat).toBe("json");
    expect(loadConfig({ LOG_FORMAT: "pretty" }, { stdoutIsTerminal: false }).logFormat).toBe("pretty");
  });

  it("configures X OAuth only when the client id and redirect URL are set", () => {
    expect(loadConfig({}).x).toBeUndefined();
    expect(loadConfig({ X_CLIENT_ID: "client", X_REDIRECT_URL: "https://mkt.example/x/callback" }).x).toEqual(
      { clientId: "client", clientSecret: undefined, redirectUrl: "https://mkt.example/x/callback" },
    );
    expect(
      loadConfig({
        X_CLIENT_ID: "client",
        X_CLIENT_SECRET: "secret",
        X_REDIRECT_URL: "https://mkt.example/x/callback",
      }).x?.clientSecret,
    ).toBe("secret");
  });

  it("reads the classic image proxy's hosts and the ETH/USD price source", () => {
    expect(loadConfig({}).imageProxyHosts).toEqual([]);
    expect(loadConfig({ IMAGE_PROXY_HOSTS: "Images.Example.com, *.ipfs.example" }).imageProxyHosts).toEqual([
      "images.example.com",
      "*.ipfs.example",
    ]);
    // The dev chain gets a fixed rate; a real chain gets none unless configured.
    expect(loadConfig({}).priceSource).toEqual({ kind: "fixed", usdPerEth: "3000" });
    expect(loadConfig({ RPC_URL_8453: "https://rpc.example.com" }).priceSource).toBeUndefined();
    expect(loadConfig({ ETH_USD_PRICE: "3012.55" }).priceSource).toEqual({
      kind: "fixed",
      usdPerEth: "3012.55",
    });
    expect(loadConfig({ ETH_USD_PRICE_URL: "https://p.example.com/eth" }).priceSource).toEqual({
      kind: "http",
      url: "https://p.example.com/eth",
      path: "price",
    });
    expect(
      loadConfig({ ETH_USD_PRICE_URL: "https://p.example.com/eth", ETH_USD_PRICE_PATH: "data.amount" })
        .priceSource,
    ).toEqual({ kind: "http", url: "https://p.example.com/eth", path: "data.amount" });
  });

  it.each([
    [{ PORT: "http" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ ALLOWED_ORIGINS: "https://a.example/path" }, "ALLOWED_ORIGINS"],
    [{ MKT_DEMO: "yes" }, "MKT_DEMO"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
    [{ LOG_FORMAT: "text" }, "LOG_FORMAT"],
    [{ LOG_FORMAT: "JSON" }, "LOG_FORMAT"],
    [{ PUBLIC_READS: "maybe" }, "PUBLIC_READS"],
    [{ TRUST_PROXY: "not a proxy" }, "TRUST_PROXY"],
    [{ TRUST_PROXY: "true" }, "TRUST_PROXY: true would trust every X-Forwarded-For hop"],
    [{ ADMIN_TOKEN: "short" }, "ADMIN_TOKEN"],
    [{ RPC_URL_8453: "nope" }, "RPC_URL_8453"],
    [{ X_CLIENT_ID: "client" }, "X_REDIRECT_URL"],
    [{ X_REDIRECT_URL: "https://mkt.example/x/callback" }, "X_REDIRECT_URL: needs X_CLIENT_ID"],
    [{ X_CLIENT_SECRET: "secret" }, "X_CLIENT_SECRET: needs X_CLIENT_ID"],
    [{ X_CLIENT_ID: "client", X_REDIRECT_URL: "ftp://mkt.example/cb" }, "X_REDIRECT_URL"],
    [{ IMAGE_PROXY_HOSTS: "https://images.example.com" }, "IMAGE_PROXY_HOSTS"],
    [{ IMAGE_PROXY_HOSTS: "images.example.com:8443" }, "IMAGE_PROXY_HOSTS"],
    [{ ETH_USD_PRICE: "3,000" }, "ETH_USD_PRICE"],
    [{ ETH_USD_PRICE: "0" }, "ETH_USD_PRICE"],
    [{ ETH_USD_PRICE_URL: "ftp://prices.example.com" }, "ETH_USD_PRICE_URL"],
    [{ ETH_USD_PRICE: "3000", ETH_USD_PRICE_URL: "https://p.example.com" }, "ETH_USD_PRICE: set either"],
    [{ ETH_USD_PRICE_PATH: "data.amount" }, "ETH_USD_PRICE_PATH: needs ETH_USD_PRICE_URL"],
    [
      { ETH_USD_PRICE_URL: "https://p.example.com", ETH_USD_PRICE_PATH: "data..amount" },
      "ETH_USD_PRICE_PATH",
    ],
  ])("refuses %j naming the variable", (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(name));
  });
});

describe("ALLOWED_ORIGINS default: the server's own origins", () => {
  it.each([
    [{}, ["http://localhost:8080", "http://127.0.0.1:8080"]],
    [{ PORT: "9090" }, ["http://localhost:9090", "http://127.0.0.1:9090"]],
    [{ HOST: "127.0.0.2", PORT: "9090" }, ["http://localhost:9090", "http://127.0.0.2:9090"]],
    [{ HOST: "localhost", PORT: "9090" }, ["http://localhost:9090"]],
    [{ HOST: "::1", PORT: "9090" }, ["http://localhost:9090", "http://[::1]:9090"]],
    // A wildcard listener is reached on loopback too; PUBLIC_URL defaults to the wildcard URL.
    [
      { HOST: "0.0.0.0", PORT: "9090" },
      ["http://localhost:9090", "http://127.0.0.1:9090", "http://0.0.0.0:9090"],
    ],
    [{ HOST: "::", PORT: "9090" }, ["http://localhost:9090", "http://127.0.0.1:9090", "http://[::]:9090"]],
    [{ HOST: "10.1.2.3", PORT: "9090" }, ["http://10.1.2.3:9090"]],
    [{ PORT: "80" }, ["http://localhost", "http://127.0.0.1"]],
    [
      { PORT: "9090", PUBLIC_URL: "https://mkt.example/base/" },
      ["http://localhost:9090", "http://127.0.0.1:9090", "https://mkt.example"],
    ],
    [
      { HOST: "10.1.2.3", PUBLIC_URL: "https://mkt.example:8443" },
      ["http://10.1.2.3:8080", "https://mkt.example:8443"],
    ],
    // A port picked at start names no origin: only PUBLIC_URL's.
    [{ PORT: "0", PUBLIC_URL: "https://mkt.example" }, ["https://mkt.example"]],
  ])("%j allows exactly %j, PUBLIC_URL's origin among them", (env, origins) => {
    const config = loadConfig(env);
    expect(config.allowedOrigins).toEqual(origins);
    expect(config.allowedOrigins).toContain(new URL(config.publicUrl).origin);
  });

  it("takes an explicit list as it is", () => {
    expect(loadConfig({ PORT: "9090", ALLOWED_ORIGINS: "https://mkt.example" }).allowedOrigins).toEqual([
      "https://mkt.example",
    ]);
  });

  it("lets the server's own URL sign in with PORT=9090, and only its origins", async () => {
    const test = await setupApp({ env: { PORT: "9090", PUBLIC_URL: "", ALLOWED_ORIGINS: "" } });
    try {
      const { key } = await test.createKey();
      const signIn = async (origin: string) =>
        test.app.server.inject({
          method: "POST",
          url: "/market/account/session",
          headers: { "api-key": key, origin },
          payload: await signEnvelope(testWallet(1), { now: Date.now(), origin }),
        });
      expect((await signIn("http://127.0.0.1:9090")).statusCode).toBe(200);
      expect((await signIn("http://localhost:9090")).statusCode).toBe(200);
      expect((await signIn(TEST_ORIGIN)).statusCode).toBe(403);
    } finally {
      await test.close();
    }
  });
});

describe("TRUST_PROXY", () => {
  const v4 = ["0.0.0.0", "10.0.0.1", "127.255.255.255", "128.0.0.0", "255.255.255.255", "::ffff:192.0.2.1"];
  const v6 = [
    "::",
    "::1",
    "2001:db8::1",
    "7fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
    "8000::",
    "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
  ];

  it.each([
    ["0.0.0.0/1,128.0.0.0/1", "IPv4", v4],
    ["0.0.0.0/2, 64.0.0.0/2, 128.0.0.0/1", "IPv4", v4],
    ["0/1,128.0.0.0/1", "IPv4", v4],
    ["::ffff:0:0/96", "IPv4", v4],
    ["::ffff:0.0.0.0/97,::ffff:128.0.0.0/97", "IPv4", v4],
    ["0.0.0.0/1,::ffff:128.0.0.0/97", "IPv4", v4],
    ["0.0.0.0/128.0.0.0,128.0.0.0/1", "IPv4", v4],
    ["::/1,8000::/1", "IPv6", v6],
    ["::/1,8000::/2,c000::/2,10.0.0.0/8", "IPv6", v6],
  ])("refuses %s, which proxy-addr reads as trusting every %s address", (value, family, addresses) => {
    // The library Fastify hands the list to does trust all of them...
    const trust = proxyAddr.compile(value.split(",").map((item) => item.trim()));
    for (const address of addresses) expect(trust(address, 0), address).toBe(true);
    // ...so the configuration refuses it, naming the variable.
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(
      new RegExp(`TRUST_PROXY: .*trusts every ${family} address`),
    );
  });

  it.each(["0.0.0.0/0", "::/0", "10.0.0.0/8,0.0.0.0/0"])("refuses %s, a range of every address", (value) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY: .*\/0 trusts every address/);
  });

  it.each([
    ["10.0.0.0/33", "invalid range"],
    ["fe80::/129", "invalid range"],
    ["300.1.1.1", "invalid IP address"],
    ["10.0.0.0/255.0.255.0", "invalid range"],
    ["10.0.0.0/8,", "(empty)"],
    ["localhost", "invalid IP address"],
    ["10.0.0.0/8;192.168.0.0/16", "invalid IP address"],
  ])("refuses %s, which proxy-addr cannot parse", (value, reason) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(
      /TRUST_PROXY: not a hop count, address, CIDR or named range/,
    );
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(reason);
  });

  it.each([
    ["0.0.0.0/1", "255.255.255.255"],
    ["0.0.0.0/1,128.0.0.0/2", "192.0.0.1"],
    ["::ffff:0:0/97", "::ffff:200.0.0.1"],
    ["::/1", "8000::1"],
    ["::/1,8000::/2", "c000::1"],
    ["::/1,0.0.0.0/1,128.0.0.0/2", "ffff::1"],
    ["10.0.0.0/8, ::1", "192.0.2.1"],
    ["loopback,linklocal,uniquelocal", "203.0.113.7"],
    ["10.0.0.0/255.0.0.0", "11.0.0.1"],
    ["fe80::1%eth0", "2001:db8::1"],
  ])("accepts %s, which leaves %s untrusted", (value, untrusted) => {
    const list = value.split(",").map((item) => item.trim());
    expect(proxyAddr.compile(list)(untrusted, 0)).toBe(false);
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(list);
  });

  describe("at start", () => {
    let child: ChildProcess | undefined;
    afterEach(() => {
      if (child && child.exitCode === null) child.kill("SIGKILL");
    });

    it.each(["0.0.0.0/1,128.0.0.0/1", "0.0.0.0/0"])(
      "stops the process with exit code 2 and a message naming it: %s",
      async (value) => {
        const main = new URL("../main.ts", import.meta.url).pathname;
        const started = spawn(process.execPath, ["--import", "tsx", main], {
          env: {
            ...process.env,
            TRUST_PROXY: value,
            PORT: "0",
            ADMIN_PORT: "0",
            DEVNET_PORT_8453: "0",
            DEVNET_PORT_4663: "0",
            MKT_DEMO: "0",
            DATABASE_URL: "memory://",
            MKT_DATA_DIR: mkdtempSync(join(tmpdir(), "mkt-config-")),
          },
          stdio: ["ignore", "pipe", "pipe"],
        });
        child = started;
        let stdout = "";
        let stderr = "";
        started.stdout.on("data", (chunk) => {
          stdout += chunk;
        });
        started.stderr.on("data", (chunk) => {
          stderr += chunk;
        });
        const [code] = await once(started, "exit");
        expect(code).toBe(2);
        expect(stderr).toMatch(/^mkt: invalid configuration:\n {2}TRUST_PROXY: .*trusts every/);
        // Nothing started: no banner, no dev chain.
        expect(stdout).toBe("");
      },
      30_000,
    );
  });
});
