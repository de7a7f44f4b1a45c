import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createManualClock, setupApp, type TestApp } from "../_test/app.ts";
import { PREDICT_HEAD_TIME, PREDICT_TEST_DEPLOYMENT, setPredictHead } from "../_test/predict.ts";
import { HEALTH_PING_REUSE_MS } from "./runtime-routes.ts";

describe("GET /predict/v9/health and the database", () => {
  let t: TestApp;
  let key: string;
  const clock = createManualClock(Date.parse(PREDICT_HEAD_TIME) + 1_000);
  const health = async () =>
    (await t.app.server.inject({ url: "/predict/v9/health", headers: { "api-key": key } })).statusCode;

  beforeAll(async () => {
    t = await setupApp({ deployments: [PREDICT_TEST_DEPLOYMENT], clock });
    key = (await t.createKey({ multiplier: 100 })).key;
    await setPredictHead(t.db);
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await t?.close();
  });

  it("asks the database once per second however often it is polled, and again at once after a failure", async () => {
    const ping = vi.spyOn(t.db, "ping");
    expect(await health()).toBe(200);
    expect(await health()).toBe(200);
    expect(await health()).toBe(200);
    expect(ping).toHaveBeenCalledTimes(1);

    // A second later the answer is asked again; a database that does not answer is a 503...
    clock.advance(HEALTH_PING_REUSE_MS);
    ping.mockRejectedValueOnce(new Error("connection refused"));
    expect(await health()).toBe(503);
    expect(ping).toHaveBeenCalledTimes(2);
    // ...and that failure is not kept: the next request asks again.
    expect(await health()).toBe(200);
    expect(ping).toHaveBeenCalledTimes(3);
  });
});
