import { apiKeyPattern } from "@mkt/protocol";
import { UsageError } from "./errors.ts";
import { type Answer, type CallOptions, call, type Endpoint } from "./http.ts";
import type { Io, Secrets } from "./io.ts";

export const DEFAULT_URL = "http://127.0.0.1:8080";
export const DEFAULT_ADMIN_URL = "http://127.0.0.1:8081";

/** Where the CLI talks to and with which credentials: each flag, else its environment variable, else the default. */
export interface Settings {
  url: string;
  adminUrl: string;
  key: string | undefined;
  adminToken: string | undefined;
}

export type Values = Record<string, string | boolean | undefined>;

/** An http(s) base URL without a trailing slash; `source` names the flag and variable in the error. */
function baseUrl(raw: string, source: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`${source} must be an http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new UsageError(`${source} must be an http(s) URL, got "${raw}"`);
  if (url.username || url.password) throw new UsageError(`${source} must not carry credentials`);
  if (url.search || url.hash) throw new UsageError(`${source} must not carry a query or a fragment`);
  return url.href.replace(/\/+$/, "");
}

const nonEmpty = (value: string | boolean | undefined) =>
  typeof value === "string" && value.length > 0 ? value : undefined;

export function resolveSettings(values: Values, env: Io["env"], secrets: Secrets): Settings {
  const key = nonEmpty(values["key"]) ?? nonEmpty(env["MKT_API_KEY"]);
  const adminToken = nonEmpty(values["admin-token"]) ?? nonEmpty(env["MKT_ADMIN_TOKEN"]);
  secrets.add(key);
  secrets.add(adminToken);
  return {
    url: baseUrl(nonEmpty(values["url"]) ?? nonEmpty(env["MKT_URL"]) ?? DEFAULT_URL, "--url (MKT_URL)"),
    adminUrl: baseUrl(
      nonEmpty(values["admin-url"]) ?? nonEmpty(env["MKT_ADMIN_URL"]) ?? DEFAULT_ADMIN_URL,
      "--admin-url (MKT_ADMIN_URL)",
    ),
    key,
    adminToken,
  };
}

/** What every command is given: the settings, the output mode and the calls it can make. */
export class Context {
  constructor(
    readonly io: Io,
    readonly settings: Settings,
    readonly secrets: Secrets,
    /** `--json`: one JSON document on standard output (one per line for streams), nothing else there. */
    readonly json: boolean,
  ) {}

  /** The API key, checked for its shape; a usage error names where to give it. */
  requireKey(purpose: string): string {
    const { key } = this.settings;
    if (key === undefined)
      throw new UsageError(
        `${purpose} needs an API key: set MKT_API_KEY or pass --key (create one with mkt keys create)`,
      );
    if (!apiKeyPattern.test(key))
      throw new UsageError(
        "the API key (MKT_API_KEY or --key) is not an mkt key: expected mkt_ and 43 characters",
      );
    return key;
  }

  /** The public listener; with `key: "required"` the API key is sent and must be set. */
  api(key: "required" | "none", purpose = "this command"): Endpoint {
    return {
      baseUrl: this.settings.url,
      headers: key === "required" ? { "API-KEY": this.requireKey(purpose) } : {},
    };
  }

  /** The operator listener, with `Authorization: Bearer <operator token>`. */
  admin(): Endpoint {
    const token = this.settings.adminToken;
    if (token === undefined)
      throw new UsageError(
        "operator commands need the operator token: set MKT_ADMIN_TOKEN or pass --admin-token (npm start prints it)",
      );
    return { baseUrl: this.settings.adminUrl, headers: { authorization: `Bearer ${token}` } };
  }

  call(endpoint: Endpoint, options: CallOptions): Promise<Answer> {
    return call(this.io.fetch, endpoint, options, this.io.signal);
  }

  /** The command's result: as one JSON document under `--json`, else as `human` renders it. */
  print(value: unknown, human: () => string): void {
    this.io.stdout(this.json ? `${JSON.stringify(value, null, 2)}\n` : human());
  }

  /** One line of a stream's output: a compact JSON document under `--json` (NDJSON), else `human`. */
  emit(value: unknown, human: () => string): void {
    this.io.stdout(this.json ? `${JSON.stringify(value)}\n` : human());
  }

  /** A note for the person at the terminal; on standard error, so `--json` output stays clean. */
  note(text: string): void {
    this.io.stderr(`${text}\n`);
  }
}

/** A `true|false` flag value. */
export function booleanFlag(values: Values, name: string): boolean | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  if (raw === "true") return true;
  if (raw === "false") return false;
  throw new UsageError(`--${name} must be true or false, got "${String(raw)}"`);
}

/** An integer flag value within bounds. */
export function integerFlag(values: Values, name: string, min: number, max: number): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const text = String(raw);
  const value = /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max)
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got "${text}"`);
  return value;
}

export function stringFlag(values: Values, name: string): string | undefined {
  const raw = values[name];
  return typeof raw === "string" ? raw : undefined;
}

export function requiredFlag(values: Values, name: string, what: string): string {
  const value = stringFlag(values, name);
  if (value === undefined || value.trim() === "") throw new UsageError(`--${name} <${what}> is required`);
  return value;
}
