import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupApp, type TestApp } from "../_test/app.ts";
import { chromiumSkipReason, launchChromium } from "../_test/chromium.ts";
import { freeLoopbackPort } from "../_test/ports.ts";

/**
 * The interactive reference in a real browser: Debian's Chromium, headless, opens a reference
 * page of a listening server whose `PUBLIC_URL` is its own address, as `npm start` runs it.
 */
describe("the API reference in headless Chromium", () => {
  const skipReason = chromiumSkipReason();
  let t: TestApp | undefined;
  let browser: Browser | undefined;
  let origin = "";
  beforeAll(async () => {
    if (skipReason) return;
    const port = await freeLoopbackPort();
    origin = `http://127.0.0.1:${port}`;
    t = await setupApp({ env: { PORT: String(port), PUBLIC_URL: origin } });
    await t.app.listen();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** A page that records what the reference asks of any host but this server (and refuses it), and every console error. */
  async function openPage(path: string) {
    if (!browser) throw new Error("no browser");
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const elsewhere: string[] = [];
    await context.route(
      () => true,
      (route) => {
        const url = route.request().url();
        if (new URL(url).origin === origin) return route.continue();
        elsewhere.push(url);
        return route.abort();
      },
    );
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    const response = await page.goto(`${origin}${path}`);
    return { page, response, elsewhere, errors, close: () => context.close() };
  }

  /** Finds an operation through the reference's search, the way a reader looks for a route. */
  async function searchOperation(page: Page, method: string, path: string) {
    await page
      .getByRole("button", { name: /search/i })
      .first()
      .click();
    await page.keyboard.type(path);
    const escaped = path.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    await page
      .getByRole("option", { name: new RegExp(`HTTP Method: ${method} Path: ${escaped}$`, "i") })
      .click();
  }

  it("finds GET /market/runtime, runs it with an API key from the UI's auth field and shows 200", async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    if (!t) throw new Error("no app");
    const { key } = await t.createKey();
    const { page, response, elsewhere, errors, close } = await openPage("/docs/market");
    try {
      expect(response?.status()).toBe(200);
      await searchOperation(page, "get", "/market/runtime");
      expect(page.url()).toBe(`${origin}/docs/market#tag/discovery/GET/market/runtime`);

      await page
        .getByRole("button", { name: /test request/i })
        .filter({ visible: true })
        .first()
        .click();
      const client = page.getByRole("dialog", { name: "API Client" });
      await client.getByRole("textbox", { name: "Value" }).fill(key);
      const sent = page.waitForRequest((request) => request.url() === `${origin}/market/runtime`);
      const answered = page.waitForResponse((answer) => answer.url() === `${origin}/market/runtime`);
      await client.getByRole("button", { name: `Send get request to ${origin}/market/runtime` }).click();

      // The call went to this server (PUBLIC_URL) with the key in the API-KEY header, and got 200.
      expect((await sent).headers()["api-key"]).toBe(key);
      expect((await answered).status()).toBe(200);
      // The UI's response panel says so.
      const panel = client.getByRole("region", { name: "Response" });
      await panel.getByRole("link", { name: "200 OK" }).waitFor();
      expect(await panel.textContent()).toContain("Status:");

      // The key stayed in the page: nothing in the browser's storage holds it.
      // (A string expression: it runs in the page, whose globals this Node project's types lack.)
      const stored = await page.evaluate<string>("JSON.stringify({ ...localStorage, ...sessionStorage })");
      expect(stored).not.toContain(key);
      // Nothing came from another host (no CDN, no fonts, no telemetry), and nothing was refused
      // (a Content-Security-Policy violation is reported as a console error).
      expect(elsewhere).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  it("lists the shared notes as linked sections of the introduction", async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const { page, elsewhere, errors, close } = await openPage("/docs/predict");
    try {
      const sidebar = page.getByRole("complementary");
      await sidebar.getByText("Introduction", { exact: true }).click();
      await sidebar.getByText("Idempotency", { exact: true }).click();
      expect(page.url()).toBe(`${origin}/docs/predict#description/idempotency`);
      await expect
        .poll(() => page.getByRole("heading", { name: "Idempotency", exact: true }).isVisible())
        .toBe(true);
      expect(elsewhere).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);
});
