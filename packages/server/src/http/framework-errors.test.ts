import { connect } from "node:net";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_ORIGIN } from "../_test/accounts.ts";
import { setupApp, type TestApp } from "../_test/app.ts";
import { createLogger } from "../logging/index.ts";
import {
  createClientErrorHandler,
  MAX_PATH_PARAMETER_LENGTH,
  MAX_REQUEST_HEAD_BYTES,
} from "./framework-errors.ts";
import {
  appProxySurface,
  classicSurface,
  marketSurface,
  platformSurface,
  predictSurface,
} from "./surfaces.ts";

// Every 4xx a surface answers, whichever layer produced it (the body parser,
// the router, Node's HTTP parser), is in that surface's documented error body
// with its own status.

type SurfaceName = "market" | "classic" | "predict" | "platform" | "app";

/** The surface's documented error body for `status` and `message`. */
function errorBody(surface: SurfaceName, status: number, message: string) {
  const codes: Record<number, [classic: string, predict: string]> = {
    400: ["VALIDATION_ERROR", "INVALID_INPUT"],
    408: ["REQUEST_TIMEOUT", "REQUEST_TIMEOUT"],
    413: ["PAYLOAD_TOO_LARGE", "PAYLOAD_TOO_LARGE"],
    414: ["URI_TOO_LONG", "URI_TOO_LONG"],
    415: ["UNSUPPORTED_MEDIA_TYPE", "UNSUPPORTED_MEDIA_TYPE"],
    431: ["HEADER_TOO_LARGE", "HEADER_TOO_LARGE"],
  };
  const [classic, predict] = codes[status] ?? ["?", "?"];
  if (surface === "classic") return { success: false, message, error: classic };
  if (surface === "predict") return { error: predict, message };
  return { error: message };
}

const MESSAGES = {
  badJson: "the request body is not valid JSON",
  emptyBody: "the request body is empty; send a JSON object",
  mediaType: "unsupported Content-Type; send application/json",
  tooLarge: "the request body is too large",
  contentLength: "the request body's size does not match its Content-Length",
  badUrl: "the path is not a valid URL: a percent escape in it does not decode",
  longParam: `a path segment is longer than ${MAX_PATH_PARAMETER_LENGTH} characters`,
  headTooLarge: `the request line and headers exceed ${MAX_REQUEST_HEAD_BYTES} bytes; shorten the query or the headers`,
  notHttp: "the request is not valid HTTP/1.1",
  timeout: "the request did not arrive in time",
};

/** A route taking a JSON body on each surface that has one (the prediction feed has none). */
const BODY_ROUTES: Array<[SurfaceName, string]> = [
  ["market", "/market/account/session"],
  ["classic", "/classic/auth/sign-in"],
  ["platform", "/keys"],
  ["app", "/app/api/account/session"],
];

/** A path with a parameter on each surface (the platform's routes have none), and a path on each. */
const PARAM_ROUTES: Array<[SurfaceName, (segment: string) => string]> = [
  ["market", (segment) => `/market/releases/${segment}`],
  ["classic", (segment) => `/classic/contractAddress/${segment}`],
  ["predict", (segment) => `/predict/v9/markets/${segment}`],
  ["app", (segment) => `/app/api/releases/${segment}`],
];
const PATHS: Array<[SurfaceName, string]> = [
  ["market", "/market/runtime"],
  ["classic", "/classic/games"],
  ["predict", "/predict/v9/runtime"],
  ["platform", "/healthz"],
  ["app", "/app/api/runtime"],
];

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Writes `request` on a new connection and reads everything the server answers until it closes the
 * connection: a refusal the parser cannot recover from must close it, or this never resolves.
 */
function raw(port: number, request: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const [head = "", body = ""] = text.split("\r\n\r\n");
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers = Object.fromEntries(
        lines.map((line) => [
          line.slice(0, line.indexOf(":")).toLowerCase(),
          line.slice(line.indexOf(":") + 1).trim(),
        ]),
      );
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body });
    });
    socket.write(request);
  });
}

describe("framework and parser errors in each surface's error body", () => {
  let t: TestApp;
  let key: string;
  let port: number;
  beforeAll(async () => {
    t = await setupApp();
    key = (await t.createKey({ multiplier: 100 })).key;
    port = Number(new URL((await t.app.listen()).publicUrl).port);
  });
  afterAll(() => t?.close());

  const post = (url: string, headers: Record<string, string>, payload: string) =>
    t.app.server.inject({
      method: "POST",
      url,
      headers: { "api-key": key, origin: TEST_ORIGIN, ...headers },
      payload,
    });

  it.each(BODY_ROUTES)("%s: body parser refusals (400, 413, 415)", async (surface, url) => {
    const json = { "content-type": "application/json" };
    const cases: Array<[string, Awaited<ReturnType<typeof post>>, number, string]> = [
      ["bad JSON", await post(url, json, "{bad"), 400, MESSAGES.badJson],
      ["empty body", await post(url, json, ""), 400, MESSAGES.emptyBody],
      ["text/plain", await post(url, { "content-type": "text/plain" }, "hi"), 415, MESSAGES.mediaType],
      [
        "over 1 MiB",
        await post(url, json, JSON.stringify({ a: "x".repeat(1_100_000) })),
        413,
        MESSAGES.tooLarge,
      ],
      [
        "short of its Content-Length",
        await post(url, { ...json, "content-length": "10" }, "{}"),
        400,
        MESSAGES.contentLength,
      ],
    ];
    for (const [name, response, status, message] of cases) {
      expect(response.statusCode, name).toBe(status);
      expect(response.json(), name).toEqual(errorBody(surface, status, message));
    }
  });

  it.each(PARAM_ROUTES)(
    "%s: router refusals (414 over-long path parameter, 400 undecodable path)",
    async (surface, path) => {
      const long = await t.app.server.inject({
        url: path("a".repeat(MAX_PATH_PARAMETER_LENGTH + 1)),
        headers: { "api-key": key, origin: TEST_ORIGIN },
      });
      expect(long.statusCode).toBe(414);
      expect(long.json()).toEqual(errorBody(surface, 414, MESSAGES.longParam));
      // Answered through the pipeline like every request: request id and CORS.
      expect(long.headers["x-request-id"]).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
      expect(long.headers["access-control-allow-origin"]).toBe(TEST_ORIGIN);
      const undecodable = await t.app.server.inject({ url: path("%zz"), headers: { "api-key": key } });
      expect(undecodable.statusCode).toBe(400);
      expect(undecodable.json()).toEqual(errorBody(surface, 400, MESSAGES.badUrl));
    },
  );

  it("platform: an undecodable path is a 400 in the {error} body", async () => {
    const response = await t.app.server.inject({ url: "/keys/%zz" });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(errorBody("platform", 400, MESSAGES.badUrl));
  });

  it("a path parameter up to the router's limit reaches the route's own schema", async () => {
    const response = await t.app.server.inject({
      url: `/classic/contractAddress/${"a".repeat(MAX_PATH_PARAMETER_LENGTH)}`,
      headers: { "api-key": key },
    });
    expect(response.statusCode).toBe(400);
    expect((response.json() as { message: string }).message).toMatch(/^params\.addressOrSlug: /);
  });

  it.each(PATHS)(
    "%s: Node's parser refusals over HTTP (431 request head too large, 400 not HTTP)",
    async (surface, path) => {
      const tooLarge = await raw(port, `GET ${path}?q=${"a".repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect(tooLarge.status).toBe(431);
      expect(JSON.parse(tooLarge.body)).toEqual(errorBody(surface, 431, MESSAGES.headTooLarge));
      expect(tooLarge.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(tooLarge.headers["connection"]).toBe("close");
      // The headers every answer carries, this one written on the socket included.
      expect(tooLarge.headers["x-content-type-options"]).toBe("nosniff");
      expect(tooLarge.headers["cache-control"]).toBe("no-store");
      const notHttp = await raw(port, `GET ${path} HTTP/1.1\r\nHost: x\r\nnot a header\r\n\r\n`);
      expect(notHttp.status).toBe(400);
      expect(JSON.parse(notHttp.body)).toEqual(errorBody(surface, 400, MESSAGES.notHttp));
      expect(notHttp.headers["connection"]).toBe("close");
    },
  );

  it("reads a long but ordinary request head (over Node's 16 KiB default) up to the limit", async () => {
    // 20 KB of query: past Node's default, within the limit, so the route answers it (here: its unknown parameter).
    const answer = await raw(
      port,
      `GET /healthz?q=${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({
      error: 'query: unknown parameter "q"; this route takes no query parameters',
    });
  });
});

describe("the client error handler", () => {
  const surfaces = [
    marketSurface(),
    classicSurface(),
    predictSurface("https://api.mkt.test"),
    appProxySurface(),
    platformSurface(),
  ];
  const handler = createClientErrorHandler({
    surfaces,
    fallback: marketSurface(),
    logger: createLogger({ level: "silent" }),
  });

  /** Runs the handler on a socket that records what is written, and answers it. */
  const answer = (code: string, packet: string | undefined) => {
    const socket = new PassThrough();
    let written = "";
    socket.on("data", (chunk: Buffer) => {
      written += chunk.toString("utf8");
    });
    const error = Object.assign(new Error(code), {
      code,
      ...(packet === undefined ? {} : { rawPacket: Buffer.from(packet, "latin1") }),
    });
    handler(error, socket);
    return new Promise<{ text: string; destroyed: boolean }>((resolve) =>
      socket.on("close", () => resolve({ text: written, destroyed: socket.destroyed })),
    );
  };

  it.each([
    ["ERR_HTTP_REQUEST_TIMEOUT", 408, MESSAGES.timeout],
    ["HPE_HEADER_OVERFLOW", 431, MESSAGES.headTooLarge],
    ["HPE_INVALID_METHOD", 400, MESSAGES.notHttp],
  ] as const)(
    "%s: a complete %i response in the body of the surface the request line names, then close",
    async (code, status, message) => {
      for (const [surface, target] of [
        ["classic", "/classic/games?x=1"],
        ["predict", "/predict/v9"],
        ["app", "/app/api/runtime"],
        ["market", "/market/runtime"],
        ["platform", "/healthz"],
      ] as const) {
        const { text, destroyed } = await answer(code, `GET ${target} HTTP/1.1\r\nHost: x\r\n`);
        const [head = "", body = ""] = text.split("\r\n\r\n");
        expect(head.split("\r\n")[0], surface).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
        expect(head).toContain("\r\nConnection: close");
        expect(head).toContain(`\r\nContent-Length: ${Buffer.byteLength(body)}`);
        expect(JSON.parse(body), surface).toEqual(errorBody(surface, status, message));
        expect(destroyed).toBe(true);
      }
    },
  );

  it("answers in the market's {error} body when the packet does not show the request line", async () => {
    const { text } = await answer("HPE_HEADER_OVERFLOW", "aaaaaaaaaaaaaaaaaaaa");
    expect(JSON.parse(text.split("\r\n\r\n")[1] ?? "")).toEqual({ error: MESSAGES.headTooLarge });
    const none = await answer("ERR_HTTP_REQUEST_TIMEOUT", undefined);
    expect(JSON.parse(none.text.split("\r\n\r\n")[1] ?? "")).toEqual({ error: MESSAGES.timeout });
  });
});
