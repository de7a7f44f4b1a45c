import { describe, expect, it } from "vitest";
import { createCorsPolicy } from "./cors.ts";

describe("CORS header lists", () => {
  it("give exactly the headers of headersFor, for every kind of caller", () => {
    const policy = createCorsPolicy(["https://mkt.example", "http://localhost:8080"]);
    const cases: [string | undefined, string][] = [
      [undefined, "/market/api-key?bucket=read"],
      ["https://mkt.example", "/market/api-key?bucket=read"],
      ["http://localhost:8080", "/app/api/market/runtime"],
      ["https://elsewhere.example", "/market/api-key?bucket=read"],
      ["https://elsewhere.example", "/app/api/market/runtime"],
    ];
    for (const [origin, url] of cases) {
      expect(policy.headerListFor(origin, url)).toEqual(
        Object.entries(policy.headersFor(origin, url)).flat(),
      );
    }
  });
});
