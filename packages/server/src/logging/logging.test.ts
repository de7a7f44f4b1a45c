import { describe, expect, it } from "vitest";
import { createLogCapture } from "../_test/app.ts";
import { createLogger } from "./index.ts";

describe("log redaction", () => {
  it("censors credential headers and secret fields wherever they are logged", () => {
    const capture = createLogCapture();
    const logger = createLogger({ level: "info", destination: capture.stream });
    const secrets = {
      apiKey: "mkt_SECRETKEYVALUE0000000000000000000000000000",
      bearer: "Bearer SESSIONTOKENVALUE",
      cookie: "mkt-session=COOKIEVALUE",
      session: "XMKTSESSIONVALUE",
      signature: "0xSIGNATUREVALUE",
    };
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
    const text = capture.text();
    for (const value of [
      "SECRETKEYVALUE",
      "SESSIONTOKENVALUE",
      "COOKIEVALUE",
      "XMKTSESSIONVALUE",
      "SIGNATUREVALUE",
      "TOKENVALUE",
      "NESTEDKEYVALUE",
    ]) {
      expect(text).not.toContain(value);
    }
    expect(text).toContain("[redacted]");
    expect(text).toContain('"msg":"request"');
  });
});
