import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createManualClock } from "../_test/app.ts";
import { loadConfig } from "../config/index.ts";
import {
  createHttpPriceSource,
  createPriceSource,
  fixedPriceSource,
  formatUsd,
  readPrice,
  weiToUsd,
  weiToUsdText,
} from "./price.ts";

describe("weiToUsd", () => {
  it("converts exactly and rounds down to the cent", () => {
    expect(weiToUsd(10n ** 18n, "3000")).toBe("3000.00");
    expect(weiToUsd(10n ** 16n, "3012.55")).toBe("30.12");
    expect(weiToUsd(1n, "3000")).toBe("0.00");
    expect(weiToUsd(0n, "1")).toBe("0.00");
    expect(weiToUsd(123_456_789_000_000_000_000n, "0.5")).toBe("61.72");
  });
  it("matches rational arithmetic for any amount and price", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.integer({ min: 0, max: 10_000_000 }),
        (wei, priceCents) => {
          const price = `${Math.floor(priceCents / 100)}.${String(priceCents % 100).padStart(2, "0")}`;
          const expected = (wei * BigInt(priceCents)) / 10n ** 18n;
          const [whole, cents] = weiToUsd(wei, price).split(".");
          expect(BigInt(whole!) * 100n + BigInt(cents!)).toBe(expected);
        },
      ),
    );
  });
  it("a fixed source's price was obtained when it started", async () => {
    const started = new Date(Date.UTC(2026, 4, 1));
    expect(await fixedPriceSource("4662.53", started).quote()).toEqual({
      usdPerEth: "4662.53",
      obtainedAt: started,
    });
    const clock = createManualClock();
    expect((await createPriceSource(loadConfig({}), { clock })?.quote())?.obtainedAt).toEqual(
      new Date(clock.now()),
    );
  });
  it("refuses a source that is not a price", () => {
    expect(() => fixedPriceSource("abc")).toThrow();
  });
});

describe("formatUsd", () => {
  it("writes the live service's dollar strings: $, thousands separators, two decimals, rounded down", () => {
    expect(formatUsd("4662.53")).toBe("$4,662.53");
    expect(formatUsd("0.5")).toBe("$0.50");
    expect(formatUsd("1234567.891")).toBe("$1,234,567.89");
    expect(formatUsd("4743.63")).toBe("$4,743.63");
    expect(formatUsd("0.73")).toBe("$0.73");
    expect(formatUsd("0")).toBe("$0.00");
    expect(formatUsd("999.999")).toBe("$999.99");
    expect(formatUsd("1000")).toBe("$1,000.00");
    expect(formatUsd("00012.3")).toBe("$12.30");
    expect(formatUsd("123456789012345678")).toBe("$123,456,789,012,345,678.00");
    expect(() => formatUsd("-1")).toThrow();
    expect(() => formatUsd("1e3")).toThrow();
  });
  it("formats exact Wei amounts", () => {
    expect(weiToUsdText(1_581_210_000_000_000_000n, "3000")).toBe("$4,743.63");
    expect(weiToUsdText(10n ** 16n, "3012.55")).toBe("$30.12");
    expect(weiToUsdText(0n, "3000")).toBe("$0.00");
  });
});

describe("createHttpPriceSource", () => {
  let server: Server;
  let base: string;
  /** What the price host answers next: a status and a body. */
  let answer: { status: number; body: string };
  let hits = 0;
  beforeAll(async () => {
    server = createServer((_request, response) => {
      hits += 1;
      response.writeHead(answer.status, { "content-type": "application/json" }).end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const sourceWith = (jsonPath?: string) => {
    const clock = createManualClock();
    const errors: string[] = [];
    const source = createHttpPriceSource({
      url: `${base}/price`,
      ...(jsonPath === undefined ? {} : { jsonPath }),
      clock,
      onError: (message) => errors.push(message),
    });
    return { clock, errors, source };
  };

  it("answers a fresh price and fetches at most once a minute", async () => {
    answer = { status: 200, body: '{"price":"3012.55"}' };
    hits = 0;
    const { clock, source } = sourceWith();
    const fetchedAt = clock.now();
    expect(await source.quote()).toEqual({ usdPerEth: "3012.55", obtainedAt: new Date(fetchedAt) });
    answer = { status: 200, body: '{"price":3100.5}' };
    clock.advance(59_000);
    expect((await source.quote())?.usdPerEth).toBe("3012.55");
    expect(hits).toBe(1);
    // Due: the known price is answered at once while the refresh runs.
    clock.advance(1_000);
    expect((await source.quote())?.usdPerEth).toBe("3012.55");
    await vi.waitFor(async () => expect((await source.quote())?.usdPerEth).toBe("3100.5"));
    expect(hits).toBe(2);
    // The time of the fetch that brought the price, not of the read.
    expect((await source.quote())?.obtainedAt).toEqual(new Date(fetchedAt + 60_000));
  });

  it("reads a dotted path (Coinbase's spot shape)", async () => {
    answer = { status: 200, body: '{"data":{"amount":"2999.01","base":"ETH","currency":"USD"}}' };
    expect((await sourceWith("data.amount").source.quote())?.usdPerEth).toBe("2999.01");
  });

  it("keeps the last price while the host is down, and drops it after 5 minutes", async () => {
    answer = { status: 200, body: '{"price":"3000"}' };
    const { clock, errors, source } = sourceWith();
    expect((await source.quote())?.usdPerEth).toBe("3000");
    answer = { status: 503, body: "{}" };
    clock.advance(60_000);
    expect((await source.quote())?.usdPerEth).toBe("3000");
    await vi.waitFor(() => expect(errors).toEqual(["price source answered 503"]));
    clock.advance(240_000);
    expect((await source.quote())?.usdPerEth).toBe("3000"); // exactly 5 minutes old: still usable
    await vi.waitFor(() => expect(errors).toHaveLength(2));
    clock.advance(1);
    expect((await source.quote())?.usdPerEth).toBeUndefined(); // stale, and the next fetch is not due yet
    clock.advance(60_000);
    answer = { status: 200, body: '{"price":"3050.10"}' };
    expect((await source.quote())?.usdPerEth).toBe("3050.10");
  });

  it("has no price from a malformed document or an unreachable host", async () => {
    for (const body of [
      "not json",
      '{"price":"-1"}',
      '{"price":"1e3"}',
      '{"price":0}',
      '{"other":"1"}',
      "[1]",
    ]) {
      answer = { status: 200, body };
      const { source, errors } = sourceWith();
      expect((await source.quote())?.usdPerEth).toBeUndefined();
      expect(errors).toHaveLength(1);
    }
    // Port 1 on loopback: nothing listens there, the connection is refused.
    const down = createHttpPriceSource({ url: "http://127.0.0.1:1/price", clock: createManualClock() });
    expect((await down.quote())?.usdPerEth).toBeUndefined();
  });
});

describe("readPrice", () => {
  it("accepts decimal strings and plain numbers at the path, nothing else", () => {
    expect(readPrice({ price: "3012.55" }, "price")).toBe("3012.55");
    expect(readPrice({ price: 3012 }, "price")).toBe("3012");
    expect(readPrice({ data: { amount: "1.5" } }, "data.amount")).toBe("1.5");
    expect(readPrice({ data: [{ amount: "1.5" }] }, "data.amount")).toBeUndefined();
    expect(readPrice({ price: "3,012" }, "price")).toBeUndefined();
    expect(readPrice({ price: Number.NaN }, "price")).toBeUndefined();
    expect(readPrice({}, "toString")).toBeUndefined();
  });
});

describe("createPriceSource", () => {
  it("follows the configuration: fixed, HTTP or none", async () => {
    expect((await createPriceSource(loadConfig({}))?.quote())?.usdPerEth).toBe("3000");
    expect((await createPriceSource(loadConfig({ ETH_USD_PRICE: "2500.5" }))?.quote())?.usdPerEth).toBe(
      "2500.5",
    );
    expect(createPriceSource(loadConfig({ RPC_URL_8453: "https://rpc.example.com" }))).toBeUndefined();
    expect(createPriceSource(loadConfig({ MKT_CONFIG: "chains.json" }))).toBeUndefined();
    const fetched: string[] = [];
    const http = createPriceSource(
      loadConfig({
        RPC_URL_8453: "https://rpc.example.com",
        ETH_USD_PRICE_URL: "https://prices.example.com/eth",
        ETH_USD_PRICE_PATH: "data.amount",
      }),
      {
        fetch: async (url) => {
          fetched.push(String(url));
          return new Response('{"data":{"amount":"3333.33"}}');
        },
      },
    );
    expect((await http?.quote())?.usdPerEth).toBe("3333.33");
    expect(fetched).toEqual(["https://prices.example.com/eth"]);
  });
});
