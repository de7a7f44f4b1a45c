import { existsSync } from "node:fs";
import puppeteer, { type Browser } from "puppeteer-core";

/** Debian's Chromium (`apt-get install -y chromium`), which `.ci/run` installs. */
export const CHROMIUM_PATH = "/usr/bin/chromium";

/**
 * Starts headless Chromium. Where it is not installed the test fails in CI
 * (`CI` set: the browser tests must run there) and is skipped with the reason
 * elsewhere.
 */
export async function launchChromium(skip: (note: string) => void): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    const reason = `Chromium is not installed at ${CHROMIUM_PATH} (apt-get install -y chromium)`;
    if (process.env["CI"]) throw new Error(`${reason}; CI runs the browser tests`);
    skip(reason);
  }
  return puppeteer.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-dev-shm-usage"],
  });
}
