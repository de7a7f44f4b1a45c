import { existsSync } from "node:fs";
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
