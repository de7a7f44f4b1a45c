import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { MAX_ACCOUNT_WALLETS, MAX_SIGNATURE_BYTES, signInMessage } from "@mkt/protocol";
import { type Hex, numberToHex } from "viem";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  accountAction,
  type Envelope,
  signEnvelope,
  signIn,
  TEST_ORIGIN,
  testWallet,
} from "../../_test/accounts.ts";
import { setupApp, type TestApp } from "../../_test/app.ts";
import {
  createWalletVerifier,
  defaultFailedVerificationBudgets,
  ERC6492_MAGIC_SUFFIX,
  VERIFICATION_GAS_LIMIT,
} from "../../identity/index.ts";
import { SLOTS } from "../../quotas/limiter.ts";

/**
 * A JSON-RPC stand-in for chain 8453 that records every call: no address has
 * code and every `eth_call` answers false.
 */
function startRecordingRpc() {
  const calls: { method: string; params: unknown[] }[] = [];
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      const parsed = JSON.parse(body) as { id: number; method: string; params: unknown[] };
      calls.push({ method: parsed.method, params: parsed.params });
      const result =
        parsed.method === "eth_getCode"
          ? "0x"
          : parsed.method === "eth_chainId"
            ? "0x2105"
            : `0x${"00".repeat(32)}`;
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ jsonrpc: "2.0", id: parsed.id, result }));
    });
  });
  return new Promise<{ url: string; calls: typeof calls; close(): Promise<void> }>((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        calls,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

let rpc: Awaited<ReturnType<typeof startRecordingRpc>>;
let test: TestApp;
let apiKey: string;
beforeAll(async () => {
  rpc = await startRecordingRpc();
  test = await setupApp({ walletVerifier: createWalletVerifier({ rpcUrl: rpc.url }) });
  apiKey = (await test.createKey({ multiplier: 1000 })).key;
});
afterAll(async () => {
  await test.close();
  await rpc.close();
});
beforeEach(() => {
  rpc.calls.length = 0;
});

const post = (payload: Partial<Envelope>, remoteAddress = "127.0.0.1") =>
  test.app.server.inject({
    method: "POST",
    url: "/market/account/session",
    headers: { "api-key": apiKey, origin: TEST_ORIGIN },
    payload,
    remoteAddress,
  });
const sign = (index: number) => signEnvelope(testWallet(index), { now: Date.now() });
const methods = () => rpc.calls.map((call) => call.method);

/** A sign-in envelope for `address`, signed by another wallet. */
const forged = async (address: string) => {
  const fields = { ...(await sign(0)), address: address.toLowerCase() };
  return { ...fields, signature: await testWallet(1).signMessage({ message: signInMessage(fields) }) };
};

describe("sign-in verification reaches the chain only when it must", () => {
  it("signs an EOA in without any RPC call", async () => {
    const response = await post(await sign(60));
    expect(response.statusCode).toBe(200);
    expect(rpc.calls).toEqual([]);
  });

  it("refuses a wrong signature for an address without code after eth_getCode, never eth_call", async () => {
    const response = await post(await forged(testWallet(61).address));
    expect(response.statusCode).toBe(401);
    expect(methods()).toEqual(["eth_getCode"]);
  });

  it("sends an ERC-6492 wrapped signature to eth_call capped at the verification gas limit", async () => {
    const envelope = await sign(62);
    const signature = `${envelope.signature}${"00".repeat(64)}${ERC6492_MAGIC_SUFFIX}`;
    const response = await post({
      ...envelope,
      address: "0x00000000000000000000000000000000000000b2",
      signature,
    });
    expect(response.statusCode).toBe(401);
    expect(methods()).toEqual(["eth_call"]);
    expect((rpc.calls[0]!.params as [{ gas?: Hex }])[0].gas).toBe(numberToHex(VERIFICATION_GAS_LIMIT));
  });

  it(`refuses a signature over ${MAX_SIGNATURE_BYTES} bytes with 400 and no RPC call`, async () => {
    const envelope = await sign(62);
    const signature = `0x${"ab".repeat(MAX_SIGNATURE_BYTES + 1 - 32)}${ERC6492_MAGIC_SUFFIX}`;
    const response = await post({ ...envelope, signature });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toContain(`longer than ${MAX_SIGNATURE_BYTES} bytes`);
    expect(rpc.calls).toEqual([]);
  });
});

describe("failed verifications are budgeted", () => {
  const { perAddress, perClientGroup } = defaultFailedVerificationBudgets;

  it(`refuses with 429 after ${perAddress.limit} failed verifications for one address, from any network; its own signature still signs in`, async () => {
    const victim = testWallet(63).address;
    for (let i = 0; i < perAddress.limit; i++) {
      const response = await post(await forged(victim), `198.51.100.${i + 1}`);
      expect(response.statusCode, `attempt ${i + 1}`).toBe(401);
    }
    rpc.calls.length = 0;
    const refused = await post(await forged(victim), "203.0.113.9");
    expect(refused.statusCode).toBe(429);
    expect(Object.keys(refused.json())).toEqual(["error"]);
    expect(refused.json().error).toMatch(/too many failed signature verifications/);
    const retryAfter = Number(refused.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    // At most the window plus one of its slots (the limiter counts the oldest slot in full).
    expect(retryAfter).toBeLessThanOrEqual((perAddress.windowMs + perAddress.windowMs / SLOTS) / 1000);
    expect(rpc.calls).toEqual([]);
    // Nobody can lock an EOA out: a signature that recovers locally is accepted.
    expect((await post(await sign(63), "203.0.113.9")).statusCode).toBe(200);
  });

  it(`refuses with 429 after ${perClientGroup.limit} failed verifications from one IPv6 /64, whatever the addresses`, async () => {
    const address = (i: number) => `0x${(0xa000 + i).toString(16).padStart(40, "0")}`;
    for (let i = 0; i < perClientGroup.limit; i++) {
      const response = await post(await forged(address(i)), `2001:db8:7:7::${(i + 1).toString(16)}`);
      expect(response.statusCode, `attempt ${i + 1}`).toBe(401);
    }
    const sameGroup = await post(await forged(address(100)), "2001:db8:7:7:ffff:1:2:3");
    expect(sameGroup.statusCode).toBe(429);
    expect(Number(sameGroup.headers["retry-after"])).toBeGreaterThan(0);
    expect((await post(await forged(address(101)), "2001:db8:7:8::1")).statusCode).toBe(401);
  });
});

describe("linked wallets", () => {
  it(`caps an account at ${MAX_ACCOUNT_WALLETS} wallets (409 beyond) and lists them all in the session state`, async () => {
    const owner = await signIn(test, 70, { apiKey });
    const link = async (index: number) =>
      accountAction(test, owner, { kind: "wallet-link", proof: await sign(index) });
    for (let index = 71; index < 70 + MAX_ACCOUNT_WALLETS; index++) {
      expect((await link(index)).statusCode, `wallet ${index}`).toBe(200);
    }
    const refused = await link(70 + MAX_ACCOUNT_WALLETS);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatch(`at most ${MAX_ACCOUNT_WALLETS} wallets`);

    const state = await test.app.server.inject({
      method: "GET",
      url: "/market/account/session",
      headers: owner.headers,
    });
    const wallets = state.json().wallets as string[];
    expect(wallets).toHaveLength(MAX_ACCOUNT_WALLETS);
    expect(wallets[0]).toBe(owner.address);
    expect(wallets).not.toContain(testWallet(70 + MAX_ACCOUNT_WALLETS).address.toLowerCase());

    const unlinked = await accountAction(test, owner, {
      kind: "wallet-unlink",
      address: testWallet(71).address.toLowerCase(),
    });
    expect(unlinked.statusCode).toBe(200);
    expect((await link(70 + MAX_ACCOUNT_WALLETS)).statusCode).toBe(200);
  });
});
