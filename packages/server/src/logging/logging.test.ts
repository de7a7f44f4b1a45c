import { describe, expect, it } from "vitest";
import { createLogger, type LogFormat } from "./index.ts";

/** A destination that keeps every write, synchronously. */
function collect() {
  const writes: string[] = [];
  return { stream: { write: (chunk: string) => void writes.push(chunk) }, text: () => writes.join("") };
}

const secrets = {
  apiKey: "mkt_SECRETKEYVALUE0000000000000000000000000000",
  bearer: "Bearer SESSIONTOKENVALUE",
  cookie: "mkt-session=COOKIEVALUE",
  session: "XMKTSESSIONVALUE",
  signature: "0xSIGNATUREVALUE",
};

function logSecrets(format: LogFormat) {
  const out = collect();
  const logger = createLogger({ level: "info", format, destination: out.stream });
  logger.info({
    req: {
      headers: {
        "api-key": secrets.apiKey,
        authorization: secrets.bearer,
        cookie: secrets.cookie,
        "x-mkt-session": secrets.session,
      },
    },
    res: { headers: { "set-cookie": secrets.cookie } },
    body: { signature: secrets.signature, token: "TOKENVALUE", key: "NESTEDKEYVALUE" },
    apiKey: "TOPLEVELKEY",
    msg: "request",
  });
  return out.text();
}

describe("log redaction", () => {
  it.each(["json", "pretty"] as const)(
    "censors credential headers and secret fields wherever they are logged (%s)",
    (format) => {
      const text = logSecrets(format);
      for (const value of [
        "SECRETKEYVALUE",
        "SESSIONTOKENVALUE",
        "COOKIEVALUE",
        "XMKTSESSIONVALUE",
        "SIGNATUREVALUE",
        "TOKENVALUE",
        "NESTEDKEYVALUE",
        "TOPLEVELKEY",
      ]) {
        expect(text).not.toContain(value);
      }
      expect(text).toContain("[redacted]");
      expect(text).toContain("request");
    },
  );
});

describe("log formats", () => {
  it("writes one JSON object per line with numeric levels by default", () => {
    const out = collect();
    const logger = createLogger({ level: "info", destination: out.stream });
    logger.warn({ msg: "indexed range", chainId: 8453, from: 10, to: 12 });
    const lines = out.text().trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 40,
      msg: "indexed range",
      chainId: 8453,
      from: 10,
      to: 12,
      pid: process.pid,
    });
  });

  it("writes human lines with level names, the message and the fields in pretty mode", () => {
    const out = collect();
    const logger = createLogger({ level: "debug", format: "pretty", destination: out.stream });
    logger.info({ msg: "indexed range", chainId: 8453, from: 10, to: 12 });
    logger.debug("stream opened");
    logger.error({ msg: "request failed", status: 503 });
    const lines = out.text().trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    // `[HH:MM:ss.mmm] LEVEL: message {fields}`, no colour codes when not writing to a terminal.
    expect(lines[0]).toMatch(
      /^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: indexed range \{"chainId":8453,"from":10,"to":12\}$/,
    );
    expect(lines[1]).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] DEBUG: stream opened$/);
    expect(lines[2]).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] ERROR: request failed \{"status":503\}$/);
  });

  it("keeps the level threshold in pretty mode", () => {
    const out = collect();
    const logger = createLogger({ level: "warn", format: "pretty", destination: out.stream });
    logger.info("not shown");
    logger.warn("shown");
    expect(out.text()).not.toContain("not shown");
    expect(out.text()).toMatch(/WARN: shown/);
  });
});
