import { createMktClient, MktApiError } from "@mkt/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupApp, type TestApp } from "../_test/app.ts";

describe("SDK against the running server", () => {
  let t: TestApp;
  let baseUrl: string;
  beforeAll(async () => {
    t = await setupApp();
    ({ publicUrl: baseUrl } = await t.app.listen());
  });
  afterAll(() => t.close());

  it("creates a key, reserves budget with it, revokes it", async () => {
    const anonymous = createMktClient({ baseUrl });
    const created = await anonymous.keys.create({ description: "sdk e2e", email: "sdk@example.com" });
    const client = createMktClient({ baseUrl, apiKey: created.key });
    expect(await client.market.reserve("write")).toEqual({
      limit: 25,
      remaining: 24,
      resetSeconds: expect.any(Number),
    });
    expect(await client.market.reserve("write")).toMatchObject({ remaining: 23 });
    await client.keys.revokeCurrent();
    const error = await client.market.reserve("read").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MktApiError);
    expect((error as MktApiError).status).toBe(401);
  });
});
