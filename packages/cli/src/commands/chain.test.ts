import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { run } from "../cli.ts";
import type { Io } from "../io.ts";
import { findCheckout, parseChainBanner } from "./chain.ts";

const checkout = fileURLToPath(new URL("../../../../", import.meta.url)).replace(/\/$/, "");

describe("mkt chain", () => {
  it("finds the mkt checkout from any folder inside it, and none outside", () => {
    expect(findCheckout(join(checkout, "packages", "cli", "src"))).toBe(checkout);
    expect(findCheckout(checkout)).toBe(checkout);
    expect(findCheckout(mkdtempSync(join(tmpdir(), "not-mkt-")))).toBeUndefined();
  });

  it("reads the chains and the config path from the banner", () => {
    const banner = [
      "mkt dev chains are running",
      "  chain 8453      dev chain http://127.0.0.1:8545",
      "  chain 4663      dev chain http://127.0.0.1:8546",
      "  chain config    /srv/mkt/.mkt/chains.json",
      "  demo activity   off",
    ];
    expect(parseChainBanner(banner)).toEqual({
      config: "/srv/mkt/.mkt/chains.json",
      chains: [
        { chainId: 8453, rpcUrl: "http://127.0.0.1:8545" },
        { chainId: 4663, rpcUrl: "http://127.0.0.1:8546" },
      ],
    });
    expect(parseChainBanner(banner.slice(0, 3))).toBeUndefined();
  });

  it("outside a checkout, exits 2 saying where it runs", async () => {
    let stderr = "";
    const io: Io = {
      stdout: () => {},
      stderr: (text) => {
        stderr += text;
      },
      env: {},
      stdoutIsTTY: false,
      fetch: async () => new Response(null, { status: 500 }),
      signal: new AbortController().signal,
      now: () => 0,
    };
    const outside = mkdtempSync(join(tmpdir(), "not-mkt-"));
    expect(await run(["chain", "--dir", outside], io, "1.2.3")).toBe(2);
    expect(stderr).toContain(`${outside} is not an mkt checkout`);
  });
});
