import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { type Browser, chromium } from "playwright-core";

/** Debian's Chromium (`apt-get install -y chromium`), which `.ci/run` installs; no browser is downloaded. */
export const CHROMIUM_PATH = "/usr/bin/chromium";

/**
 * Why the browser tests cannot run here, or undefined when they can. Only outside CI: in CI
 * (`CI` set, as `.ci/run` runs) a missing Chromium fails the tests instead, so a machine without
 * it can never pass them by skipping.
 */
export function chromiumSkipReason(): string | undefined {
  if (existsSync(CHROMIUM_PATH) || process.env["CI"]) return undefined;
  return `Chromium is not installed at ${CHROMIUM_PATH} (apt-get install -y chromium); CI installs it and fails without it`;
}

/** Headless Chromium, as CI runs it (as root: no sandbox; no GPU; no background traffic to other hosts). */
export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(`Chromium is not installed at ${CHROMIUM_PATH}: apt-get install -y chromium`);
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
}

/**
 * A loopback port nobody listens on now, for a server whose `PUBLIC_URL` must name its own port
 * before it starts (the URL a browser is sent to).
 */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
