import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setupReplicas } from "../_test/app.ts";

describe("GET /classic/unboxing-disallowed", () => {
  let replicas: Awaited<ReturnType<typeof setupReplicas>>;
  let key: string;
  beforeAll(async () => {
    replicas = await setupReplicas();
    key = (await replicas.a.createKey()).key;
  });
  afterAll(() => replicas.close());

  const read = async (which: "a" | "b", headers: Record<string, string> = { "api-key": key }) =>
    replicas[which].app.server.inject({ url: "/classic/unboxing-disallowed", headers });

  it("answers the operator's switch on every replica, and needs the key", async () => {
    expect((await read("a")).json()).toEqual({ disallowed: false });
    expect((await read("b")).json()).toEqual({ disallowed: false });
    const refused = await read("a", {});
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ success: false, error: "RATE_LIMITED" });

    const put = await replicas.a.admin("PUT", "/admin/classic/unboxing-disallowed", { disallowed: true });
    expect(put.statusCode).toBe(200);
    expect((await read("a")).json()).toEqual({ disallowed: true });
    // The other replica had the old answer in its read cache; the announced revision drops it.
    await vi.waitFor(async () => expect((await read("b")).json()).toEqual({ disallowed: true }), {
      timeout: 1_000,
      interval: 20,
    });

    await replicas.b.admin("PUT", "/admin/classic/unboxing-disallowed", { disallowed: false });
    expect((await read("b")).json()).toEqual({ disallowed: false });
  });

  it("refuses a malformed operator change", async () => {
    const bad = await replicas.a.admin("PUT", "/admin/classic/unboxing-disallowed", { disallowed: "yes" });
    expect(bad.statusCode).toBe(400);
    expect((await read("a")).json()).toEqual({ disallowed: false });
  });
});
