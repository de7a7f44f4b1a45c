import { describe, expect, it } from "vitest";
import { createTransport } from "./http.ts";
import { type PredictMarketsReads, predictApi } from "./predict.ts";

const MARKET = `0x${"c0".repeat(20)}`;

describe("client.predict.media", () => {
  it("reads /markets/{address}/media and parses the images", async () => {
    const paths: string[] = [];
    const answer = {
      market: MARKET,
      images: [
        {
          kind: "generated",
          url: `http://mkt.test/classic/art/4663/${MARKET}/market.svg`,
          width: 400,
          height: 560,
        },
        { kind: "operator", url: "http://mkt.test/classic/image/sig?url=x" },
      ],
    };
    const fetch = (async (url: URL | string) => {
      paths.push(new URL(String(url)).pathname);
      return new Response(JSON.stringify(answer), {
        status: 200,
        headers: { "content-type": "application/json" },
      });
    }) as typeof globalThis.fetch;
    const options = { baseUrl: "http://mkt.test", apiKey: "k", fetch };
    const predict = predictApi(createTransport(options), {
      stream: options,
      markets: {} as PredictMarketsReads,
    });
    expect(await predict.media(MARKET)).toEqual(answer);
    expect(paths).toEqual([`/predict/v9/markets/${MARKET}/media`]);
  });

  it("refuses an answer that is not the media shape", async () => {
    const fetch = (async () =>
      new Response(JSON.stringify({ market: MARKET, images: [{ kind: "other", url: "x" }] }), {
        status: 200,
        headers: { "content-type": "application/json" },
      })) as typeof globalThis.fetch;
    const options = { baseUrl: "http://mkt.test", apiKey: "k", fetch };
    const predict = predictApi(createTransport(options), {
      stream: options,
      markets: {} as PredictMarketsReads,
    });
    await expect(predict.media(MARKET)).rejects.toThrow();
  });
});
