import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./index.ts";

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
      logLevel: "info",
      publicUrl: "http://127.0.0.1:8080",
      secureCookies: false,
      trustProxy: false,
      publicReads: "key",
    });
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

  it.each([
    [{ PORT: "http" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ ALLOWED_ORIGINS: "https://a.example/path" }, "ALLOWED_ORIGINS"],
    [{ MKT_DEMO: "yes" }, "MKT_DEMO"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
    [{ PUBLIC_READS: "maybe" }, "PUBLIC_READS"],
    [{ TRUST_PROXY: "not a proxy" }, "TRUST_PROXY"],
    [{ ADMIN_TOKEN: "short" }, "ADMIN_TOKEN"],
    [{ RPC_URL_8453: "nope" }, "RPC_URL_8453"],
  ])("refuses %j naming the variable", (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(name));
  });
});
