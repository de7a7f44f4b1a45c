import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import type { IncomingMessage } from "node:http";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { AppError } from "../errors.ts";
import type { Clock } from "../quotas/limiter.ts";
import type { ImageProxyPolicy } from "./proxy-policy.ts";

/** Stable `error` codes of the image route's failures (classic error body). */
export const CLASSIC_IMAGE_ERRORS = {
  /** 404: the signature is not ours for this URL. */
  notFound: "IMAGE_NOT_FOUND",
  /** 403: the URL's host is not allowlisted, its scheme is not http(s), or it resolves to a non-public address. */
  hostNotAllowed: "IMAGE_HOST_NOT_ALLOWED",
  /** 403: the URL names a port other than 80 and 443. */
  portNotAllowed: "IMAGE_PORT_NOT_ALLOWED",
  /** 502: the host answered something other than 200, a redirect included (redirects are never followed). */
  upstream: "IMAGE_UPSTREAM_ERROR",
  /** 502: not a PNG, JPEG, WebP or GIF (by Content-Type and by its first bytes). */
  typeNotAllowed: "IMAGE_TYPE_NOT_ALLOWED",
  /** 502: larger than the size limit. */
  tooLarge: "IMAGE_TOO_LARGE",
  /** 504: the host did not deliver the image in time. */
  timeout: "IMAGE_UPSTREAM_TIMEOUT",
} as const;

export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;
type ImageType = (typeof IMAGE_TYPES)[number];

/** The first bytes each allowed type starts with: a body that does not is refused whatever its Content-Type. */
const MAGIC: Record<ImageType, (bytes: Buffer) => boolean> = {
  "image/png": (bytes) => bytes.subarray(0, 8).equals(Buffer.from("89504e470d0a1a0a", "hex")),
  "image/jpeg": (bytes) => bytes.subarray(0, 3).equals(Buffer.from("ffd8ff", "hex")),
  "image/gif": (bytes) => bytes.subarray(0, 4).toString("latin1") === "GIF8",
  "image/webp": (bytes) =>
    bytes.subarray(0, 4).toString("latin1") === "RIFF" && bytes.subarray(8, 12).toString("latin1") === "WEBP",
};

export interface FetchedImage {
  contentType: ImageType;
  bytes: Buffer;
}

export interface ImageFetcherOptions {
  /** What may be fetched (`IMAGE_PROXY_HOSTS`, ports, addresses): the same policy the image links follow. */
  policy: ImageProxyPolicy;
  /** Default 5 MB. */
  maxBytes?: number;
  /** Whole fetch, connection to last byte; default 5 s. */
  timeoutMs?: number;
  /** Bytes of fetched images kept per replica (0: no cache); default 32 MB. */
  cacheBytes?: number;
  /** How long a cached image is served; default 1 hour. */
  cacheTtlMs?: number;
  clock?: Clock;
}

export interface ImageFetcher {
  /** The image at `url`, or an AppError with one of `CLASSIC_IMAGE_ERRORS`. */
  fetch(url: string): Promise<FetchedImage>;
}

type LookupCallback = (error: Error | null, address?: string | LookupAddress[], family?: number) => void;

const refused = (message: string, code: string = CLASSIC_IMAGE_ERRORS.hostNotAllowed) =>
  new AppError("forbidden", message, { code });
const upstream = (message: string, code: string = CLASSIC_IMAGE_ERRORS.upstream) =>
  new AppError("bad_gateway", message, { code });

/**
 * Fetches the images the classic image route proxies. The checks, in order:
 * the policy's (http or https, no credentials in the URL, port 80 or 443, an
 * allowlisted host, a public address literal), and every address the host
 * resolves to public, checked in the connection's own DNS
 * lookup, so the address checked is the address connected to (no rebinding
 * between a check and the connection). Then: status 200 only (a redirect is
 * never followed: 502), an allowed Content-Type and matching first bytes
 * (SVG is refused: it can carry script), no content encoding, at most
 * `maxBytes` (counted while streaming, cut off past the limit), all within
 * `timeoutMs`.
 */
export function createImageFetcher(options: ImageFetcherOptions): ImageFetcher {
  const {
    policy,
    maxBytes = 5 * 1024 * 1024,
    timeoutMs = 5_000,
    cacheBytes = 32 * 1024 * 1024,
    cacheTtlMs = 3_600_000,
    clock = { now: () => Date.now() },
  } = options;
  const { addressAllowed } = policy;

  /** A DNS lookup that fails unless every address of the host is allowed. */
  const guardedLookup = ((hostname: string, lookupOptions: { all?: boolean }, callback: LookupCallback) => {
    dnsLookup(hostname, { ...lookupOptions, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error);
      if (addresses.length === 0 || !addresses.every((entry) => addressAllowed(entry.address)))
        return callback(refused("the image host resolves to an address that is not public"));
      const [first] = addresses as [LookupAddress];
      if (lookupOptions.all) callback(null, addresses);
      else callback(null, first.address, first.family);
    });
  }) as unknown as LookupFunction;

  const downloads = new Map<string, Promise<FetchedImage>>();
  const cache = new Map<string, FetchedImage & { at: number }>();
  let cachedBytes = 0;
  const remember = (url: string, image: FetchedImage) => {
    if (image.bytes.length > cacheBytes) return;
    const previous = cache.get(url);
    if (previous) cachedBytes -= previous.bytes.length;
    cache.delete(url);
    cache.set(url, { ...image, at: clock.now() });
    cachedBytes += image.bytes.length;
    for (const [key, entry] of cache) {
      if (cachedBytes <= cacheBytes) break;
      cache.delete(key);
      cachedBytes -= entry.bytes.length;
    }
  };
  const recall = (url: string): FetchedImage | undefined => {
    const entry = cache.get(url);
    if (!entry) return undefined;
    cache.delete(url);
    if (clock.now() - entry.at > cacheTtlMs) {
      cachedBytes -= entry.bytes.length;
      return undefined;
    }
    cache.set(url, entry); // most recently used last
    return { contentType: entry.contentType, bytes: entry.bytes };
  };

  const download = (target: URL) =>
    new Promise<FetchedImage>((resolve, reject) => {
      const request = (target.protocol === "https:" ? httpsRequest : httpRequest)(target, {
        method: "GET",
        agent: false,
        lookup: guardedLookup,
        headers: {
          accept: IMAGE_TYPES.join(", "),
          "accept-encoding": "identity",
          "user-agent": "mkt-image-proxy",
        },
      });
      let settled = false;
      const fail = (error: AppError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        request.destroy();
        reject(error);
      };
      const timer = setTimeout(
        () =>
          fail(
            new AppError("gateway_timeout", "the image host did not answer in time", {
              code: CLASSIC_IMAGE_ERRORS.timeout,
            }),
          ),
        timeoutMs,
      );
      request.on("error", (error) =>
        fail(error instanceof AppError ? error : upstream("the image host could not be reached")),
      );
      request.on("response", (response: IncomingMessage) => {
        const status = response.statusCode ?? 0;
        if (status !== 200) {
          fail(
            status >= 300 && status < 400
              ? upstream("the image host answered a redirect; redirects are not followed")
              : upstream(`the image host answered ${status}`),
          );
          return;
        }
        const contentType = (response.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
        if (!(IMAGE_TYPES as readonly string[]).includes(contentType)) {
          fail(upstream("not a PNG, JPEG, WebP or GIF image", CLASSIC_IMAGE_ERRORS.typeNotAllowed));
          return;
        }
        const encoding = response.headers["content-encoding"];
        if (encoding !== undefined && encoding !== "identity") {
          fail(upstream("the image host sent an encoded body"));
          return;
        }
        const tooLarge = () =>
          upstream(`the image is larger than ${maxBytes} bytes`, CLASSIC_IMAGE_ERRORS.tooLarge);
        if (Number(response.headers["content-length"] ?? 0) > maxBytes) {
          fail(tooLarge());
          return;
        }
        const chunks: Buffer[] = [];
        let length = 0;
        response.on("data", (chunk: Buffer) => {
          length += chunk.length;
          if (length > maxBytes) fail(tooLarge());
          else chunks.push(chunk);
        });
        response.on("error", () => fail(upstream("the image host broke off the transfer")));
        response.on("end", () => {
          if (settled) return;
          const bytes = Buffer.concat(chunks);
          if (!response.complete) return fail(upstream("the image host broke off the transfer"));
          if (!MAGIC[contentType as ImageType](bytes))
            return fail(
              upstream(
                "the body is not the image its Content-Type names",
                CLASSIC_IMAGE_ERRORS.typeNotAllowed,
              ),
            );
          settled = true;
          clearTimeout(timer);
          resolve({ contentType: contentType as ImageType, bytes });
        });
      });
      request.end();
    });

  return {
    async fetch(url) {
      const { target, refusal } = policy.check(url);
      if (refusal) throw refused(refusal.message, refusal.code);
      const cached = recall(target.href);
      if (cached) return cached;
      // Concurrent requests for one image share one download.
      let pending = downloads.get(target.href);
      if (!pending) {
        pending = download(target).finally(() => downloads.delete(target.href));
        downloads.set(target.href, pending);
        pending.then(
          (image) => remember(target.href, image),
          () => {},
        );
      }
      return pending;
    },
  };
}
