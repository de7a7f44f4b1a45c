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
