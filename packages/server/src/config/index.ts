import { isIPv6 } from "node:net";
import { hostname } from "node:os";
import { z } from "zod";
import { parseTrustProxyList } from "./trust-proxy.ts";

/**
 * The whole runtime configuration, parsed once at start. Nothing else in the
 * server reads `process.env`; everything receives the parsed `Config`.
 */
export type Config = Omit<z.infer<typeof configSchema>, "logFormat" | "replicaId"> & {
  /** `LOG_FORMAT`, or by default human-readable lines when stdout is a terminal and JSON otherwise. */
  logFormat: "pretty" | "json";
  /**
   * This process's name among the replicas of one deployment (`MKT_REPLICA_ID`, else
   * `<hostname>-<pid>`): in the start banner, on every log line, in `mkt_replica_info`, and as the
   * writer `/admin/indexer` names.
   */
  replicaId: string;
};

/**
 * A replica id: letters, digits, `.`, `_` and `-`, starting with a letter or digit, at most 48
 * characters. It travels as the PostgreSQL `application_name` of the indexer's writer-lock
 * sessions (at most 63 bytes, printable ASCII), in log lines and in a metric label.
 */
export const REPLICA_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,47}$/;

/** `<hostname>-<pid>`, with what the pattern refuses replaced and the host part shortened to fit. */
export function defaultReplicaId(hostname: string, pid: number): string {
  const host = hostname.replace(/[^A-Za-z0-9._-]/g, "-").replace(/^[^A-Za-z0-9]+/, "");
  const suffix = `-${pid}`;
  return `${(host || "mkt").slice(0, 48 - suffix.length)}${suffix}`;
}

const port = z.coerce.number().int().min(0).max(65535);
const commaList = z.string().transform((value) =>
  value
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item.length > 0),
);

const origin = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return url.origin === value && (url.protocol === "http:" || url.protocol === "https:");
  } catch {
    return false;
  }
}, "must be an origin such as https://example.com (scheme, host and optional port, no path)");

const trustProxy = z
  .string()
  .optional()
  .transform((value, ctx): false | number | string[] => {
    if (value === undefined || value === "" || value === "false") return false;
    // `true` would trust the whole X-Forwarded-For chain: any client could pick its own address.
    if (value === "true") {
      ctx.addIssue({
        code: "custom",
        message:
          "true would trust every X-Forwarded-For hop, so any client could choose its own IP; give the number of proxies in front of the server (e.g. 1) or their addresses/CIDRs",
      });
      return z.NEVER;
    }
    if (/^\d+$/.test(value)) return Number(value);
    const parsed = parseTrustProxyList(value);
    if ("error" in parsed) {
      ctx.addIssue({ code: "custom", message: parsed.error });
      return z.NEVER;
    }
    return parsed.list;
  });

/** A host name of the image proxy's allowlist: `images.example.com`, or `*.example.com` for its subdomains. */
const imageHost = z
  .string()
  .transform((value) => value.toLowerCase())
  .pipe(
    z
      .string()
      .regex(
        /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/,
        "must be a host name such as images.example.com or *.example.com (no scheme, port or path)",
      ),
  );

/** US dollars per ETH: a plain positive decimal (`3012.55`). */
const usdPerEth = z
  .string()
  .regex(/^\d{1,12}(\.\d{1,18})?$/, "must be a decimal price such as 3012.55")
  .refine((value) => /[1-9]/.test(value), "must be above 0");

/**
 * How many times its usual rate the demo activity runs: a positive decimal
 * (`10`, `0.5`) up to 100. Above that the simulator's step (1.5 s at rate 1)
 * would be shorter than a dev chain transaction takes, so steps would only
 * queue.
 */
const demoRate = z
  .string()
  .regex(/^\d{1,12}(\.\d{1,12})?$/, "must be a positive number such as 10 or 0.5")
  .transform(Number)
  .pipe(z.number().gt(0, "must be above 0").max(100, "must be at most 100"));

const databaseUrl = z
  .string()
  .optional()
  .refine(
    (value) =>
      value === undefined ||
      value === "" ||
      value === "memory://" ||
      value.startsWith("postgres://") ||
      value.startsWith("postgresql://") ||
      value.startsWith("file://"),
    "must be postgres://…, memory:// or unset",
  );

const rawSchema = z.object({
  HOST: z.string().min(1).default("127.0.0.1"),
  PORT: port.default(8080),
  DATABASE_URL: databaseUrl,
  ADMIN_HOST: z.string().min(1).default("127.0.0.1"),
  ADMIN_PORT: port.default(8081),
  ADMIN_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  ALLOWED_ORIGINS: commaList.pipe(z.array(origin).min(1, "needs at least one origin")).optional(),
  DEVNET_PORT_8453: port.default(8545),
  DEVNET_PORT_4663: port.default(8546),
  RPC_URL_8453: z.url().optional(),
  RPC_URL_4663: z.url().optional(),
  MKT_DEMO: z.enum(["0", "1"]).default("1"),
  MKT_DEMO_RATE: demoRate.default(1),
  MKT_REPLICA_ID: z
    .string()
    .regex(
      REPLICA_ID_PATTERN,
      "must be 1-48 letters, digits, '.', '_' or '-', starting with a letter or digit",
    )
    .optional(),
  MKT_INDEXER: z.enum(["0", "1"], "must be 0 (indexing off) or 1").default("1"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  LOG_FORMAT: z.enum(["pretty", "json"]).optional(),
  PUBLIC_URL: z.url().optional(),
  TRUST_PROXY: trustProxy,
  PUBLIC_READS: z.enum(["key", "open"]).default("key"),
  MKT_CONFIG: z.string().min(1).optional(),
  READYZ_REQUIRE_CHAIN: z.enum(["0", "1"], "must be 0 or 1").default("0"),
  MKT_DATA_DIR: z.string().min(1).default(".mkt"),
  MKT_MAX_IN_FLIGHT: z.coerce.number().int().min(1).default(1024),
  MKT_MAX_STREAMS: z.coerce.number().int().min(1).default(10_000),
  MKT_MAX_STREAMS_PER_KEY: z.coerce.number().int().min(1).default(5),
  MKT_MAX_STREAMS_PER_CLIENT: z.coerce.number().int().min(1).default(20),
  IMAGE_PROXY_HOSTS: commaList.default([]).pipe(z.array(imageHost)),
  ETH_USD_PRICE: usdPerEth.optional(),
  ETH_USD_PRICE_URL: z.url({ protocol: /^https?$/ }).optional(),
  ETH_USD_PRICE_PATH: z
    .string()
    .regex(/^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/, "must be a dotted JSON path such as data.amount")
    .optional(),
  X_CLIENT_ID: z.string().min(1).optional(),
  X_CLIENT_SECRET: z.string().min(1).optional(),
  X_REDIRECT_URL: z.url({ protocol: /^https?$/ }).optional(),
});

/** What the configuration depends on besides the environment. */
export interface ConfigContext {
  /** Whether stdout is a terminal: logs default to human-readable lines there, to JSON elsewhere. */
  stdoutIsTerminal?: boolean;
  /** The replica id when `MKT_REPLICA_ID` is unset (default: `defaultReplicaId(hostname(), process.pid)`). */
  defaultReplicaId?: string;
}

export const configSchema = rawSchema.transform((raw, ctx) => {
  // X account connection through OAuth is all or nothing: a half-configured client would fail at the callback.
  if (raw.X_CLIENT_ID === undefined) {
    for (const name of ["X_CLIENT_SECRET", "X_REDIRECT_URL"] as const) {
      if (raw[name] !== undefined)
        ctx.addIssue({ code: "custom", path: [name], message: "needs X_CLIENT_ID" });
    }
  } else if (raw.X_REDIRECT_URL === undefined) {
    ctx.addIssue({ code: "custom", path: ["X_REDIRECT_URL"], message: "is required with X_CLIENT_ID" });
  }
  if (raw.ETH_USD_PRICE !== undefined && raw.ETH_USD_PRICE_URL !== undefined)
    ctx.addIssue({
      code: "custom",
      path: ["ETH_USD_PRICE"],
      message: "set either ETH_USD_PRICE or ETH_USD_PRICE_URL",
    });
  if (raw.ETH_USD_PRICE_PATH !== undefined && raw.ETH_USD_PRICE_URL === undefined)
    ctx.addIssue({ code: "custom", path: ["ETH_USD_PRICE_PATH"], message: "needs ETH_USD_PRICE_URL" });
  const publicUrl = (raw.PUBLIC_URL ?? listenerUrl(raw.HOST, raw.PORT)).replace(/\/+$/, "");
  const database =
    raw.DATABASE_URL === "memory://"
      ? ({ kind: "pglite", dataDir: undefined } as const)
      : raw.DATABASE_URL?.startsWith("postgres")
        ? ({ kind: "postgres", url: raw.DATABASE_URL } as const)
        : ({
            kind: "pglite",
            dataDir: raw.DATABASE_URL?.startsWith("file://")
              ? raw.DATABASE_URL.slice("file://".length)
              : `${raw.MKT_DATA_DIR}/db`,
          } as const);
  return {
    host: raw.HOST,
    port: raw.PORT,
    database,
    admin: { host: raw.ADMIN_HOST, port: raw.ADMIN_PORT, token: raw.ADMIN_TOKEN },
    allowedOrigins: raw.ALLOWED_ORIGINS ?? defaultAllowedOrigins(raw.HOST, raw.PORT, publicUrl),
    rpcUrls: { 8453: raw.RPC_URL_8453, 4663: raw.RPC_URL_4663 } as Record<8453 | 4663, string | undefined>,
    devnetPorts: { 8453: raw.DEVNET_PORT_8453, 4663: raw.DEVNET_PORT_4663 } as Record<8453 | 4663, number>,
    demo: raw.MKT_DEMO === "1",
    /**
     * The demo activity's rate as a multiple of its usual one (`MKT_DEMO_RATE`): every demo part
     * steps this many times as often. Load tests and soaks drive the system with it.
     */
    demoRate: raw.MKT_DEMO_RATE,
    replicaId: raw.MKT_REPLICA_ID,
    /**
     * Whether this replica runs the indexer (`MKT_INDEXER`). Off: it never tries a writer lock;
     * reads and transaction recovery work as on any replica that is not the writer.
     */
    indexing: raw.MKT_INDEXER === "1",
    logLevel: raw.LOG_LEVEL,
    logFormat: raw.LOG_FORMAT,
    publicUrl,
    secureCookies: publicUrl.startsWith("https://"),
    trustProxy: raw.TRUST_PROXY,
    publicReads: raw.PUBLIC_READS,
    configFile: raw.MKT_CONFIG,
    /**
     * `READYZ_REQUIRE_CHAIN=1`: `/readyz` also answers 503 while this replica's probe of a chain's
     * RPC fails, so a load balancer takes it out; default off (`/readyz` looks at the database only).
     */
    readyzRequireChain: raw.READYZ_REQUIRE_CHAIN === "1",
    dataDir: raw.MKT_DATA_DIR,
    maxInFlight: raw.MKT_MAX_IN_FLIGHT,
    /** Live-update streams one replica holds open (they do not count against `maxInFlight`). */
    maxStreams: raw.MKT_MAX_STREAMS,
    /** Live-update streams one API key holds open on one replica. */
    maxStreamsPerKey: raw.MKT_MAX_STREAMS_PER_KEY,
    /** Live-update streams one client network (IPv4 address, IPv6 /64) holds open on one replica, whatever keys or accounts. */
    maxStreamsPerClient: raw.MKT_MAX_STREAMS_PER_CLIENT,
    /**
     * Host names the classic image proxy fetches from (`*.example.com` covers
     * the subdomains); empty: nothing is proxied.
     */
    imageProxyHosts: raw.IMAGE_PROXY_HOSTS,
    /**
     * Where the classic ETH/USD price comes from: a fixed rate, a JSON
     * document over HTTP, or nowhere (price routes answer 503). Default: a
     * fixed 3000 while the primary chain is a dev chain (neither RPC_URL_8453
     * nor MKT_CONFIG), none on a real chain.
     */
    priceSource: priceSourceOf(raw),
    /** X account connection through OAuth 2.0 (PKCE); without it only the operator verifies X accounts. */
    x:
      raw.X_CLIENT_ID !== undefined && raw.X_REDIRECT_URL !== undefined
        ? { clientId: raw.X_CLIENT_ID, clientSecret: raw.X_CLIENT_SECRET, redirectUrl: raw.X_REDIRECT_URL }
        : undefined,
  };
});

/** The URL of the public listener; an IPv6 `HOST` goes in brackets. */
function listenerUrl(host: string, port: number): string {
  return `http://${isIPv6(host) ? `[${host}]` : host}:${port}`;
}

/**
 * Without `ALLOWED_ORIGINS`, the website origins that may sign in are the
 * server's own: the origin of `PUBLIC_URL` and of the listener
 * `http://HOST:PORT`, and `http://localhost:PORT` as well when `HOST` is a
 * loopback address, where a browser on the machine reaches it by either
 * name. A wildcard `HOST` (`0.0.0.0`, `::`) is reached on loopback too, so it
 * gives the localhost and `127.0.0.1` origins. `PORT=0` (a port picked at
 * start) names no origin of its own.
 * With the default HOST and PORT this is `http://localhost:8080,
 * http://127.0.0.1:8080`.
 */
function defaultAllowedOrigins(host: string, port: number, publicUrl: string): string[] {
  const listener: string[] = [];
  if (port !== 0) {
    const wildcard = host === "0.0.0.0" || host === "::";
    const loopback = host === "localhost" || host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
    if (wildcard || loopback) listener.push(listenerUrl("localhost", port));
    listener.push(listenerUrl(wildcard ? "127.0.0.1" : host, port));
  }
  const origins = [...listener, publicUrl].flatMap((url) => {
    try {
      const { origin, protocol } = new URL(url);
      return protocol === "http:" || protocol === "https:" ? [origin] : [];
    } catch {
      return [];
    }
  });
  return [...new Set(origins)];
}

/** The dev chains' rate: round, so dollar amounts in the demo are easy to check by eye. */
export const DEV_ETH_USD_PRICE = "3000";

export type PriceSourceConfig =
  | { kind: "fixed"; usdPerEth: string }
  | { kind: "http"; url: string; path: string }
  | undefined;

function priceSourceOf(raw: z.output<typeof rawSchema>): PriceSourceConfig {
  if (raw.ETH_USD_PRICE !== undefined) return { kind: "fixed", usdPerEth: raw.ETH_USD_PRICE };
  if (raw.ETH_USD_PRICE_URL !== undefined)
    return { kind: "http", url: raw.ETH_USD_PRICE_URL, path: raw.ETH_USD_PRICE_PATH ?? "price" };
  const devChain = raw.RPC_URL_8453 === undefined && raw.MKT_CONFIG === undefined;
  return devChain ? { kind: "fixed", usdPerEth: DEV_ETH_USD_PRICE } : undefined;
}

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

/**
 * Parses the environment; throws a `ConfigError` naming every bad variable.
 * `context` carries what the defaults depend on besides the environment.
 */
export function loadConfig(env: Record<string, string | undefined>, context: ConfigContext = {}): Config {
  const defined = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ""),
  );
  const result = configSchema.safeParse(defined);
  if (!result.success) {
    const lines = result.error.issues.map(
      (issue) => `  ${issue.path.join(".") || "(env)"}: ${issue.message}`,
    );
    throw new ConfigError(`invalid configuration:\n${lines.join("\n")}`);
  }
  return {
    ...result.data,
    logFormat: result.data.logFormat ?? (context.stdoutIsTerminal === true ? "pretty" : "json"),
    replicaId: result.data.replicaId ?? context.defaultReplicaId ?? defaultReplicaId(hostname(), process.pid),
  };
}
