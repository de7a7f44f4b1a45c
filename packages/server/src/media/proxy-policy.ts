import { isIP } from "node:net";
import { isAllowedHost, isLoopbackAddress, isPublicAddress } from "./address-policy.ts";

/** The ports the image proxy connects to: a proxied URL naming another one is refused before any fetch. */
export const IMAGE_PROXY_PORTS = [80, 443] as const;

/** Why the proxy will not fetch a URL: the classic `error` code (403) and the message. */
export interface ImageProxyRefusal {
  code: "IMAGE_HOST_NOT_ALLOWED" | "IMAGE_PORT_NOT_ALLOWED";
  message: string;
}

export interface ImageProxyPolicyOptions {
  /** Allowlisted host names (`IMAGE_PROXY_HOSTS`). */
  hosts: readonly string[];
  /**
   * Tests only (an `AppOptions` flag, never configuration): an allowlisted
   * host may resolve to a loopback address, and a URL whose host is a
   * loopback address literal may name any port, so a test can serve images
   * from 127.0.0.1 on an ephemeral port. Other private ranges stay refused.
   */
  allowLoopback?: boolean;
}

/**
 * What the classic image proxy fetches, decided in one place: the proxy route
 * refuses what `check` refuses, and the image links rewrite a URL to the proxy
 * only when `check` accepts it (anything else is answered as the creator gave it).
 */
export interface ImageProxyPolicy {
  /** The allowlisted hosts (`IMAGE_PROXY_HOSTS`). */
  readonly hosts: readonly string[];
  /** The URL to fetch, or why not: http(s), no credentials, port 80 or 443, an allowlisted host, a public address literal. */
  check(
    url: string,
  ): { target: URL; refusal?: undefined } | { target?: undefined; refusal: ImageProxyRefusal };
  /** Whether an address the host resolved to may be connected to (checked again on the connection). */
  addressAllowed(address: string): boolean;
}

const hostRefusal = (message: string): ImageProxyRefusal => ({ code: "IMAGE_HOST_NOT_ALLOWED", message });

export function createImageProxyPolicy({
  hosts,
  allowLoopback = false,
}: ImageProxyPolicyOptions): ImageProxyPolicy {
  const addressAllowed = (address: string) =>
    isPublicAddress(address) || (allowLoopback && isLoopbackAddress(address));
  return {
    hosts,
    addressAllowed,
    check(url) {
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        return { refusal: hostRefusal("not an http or https URL") };
      }
      if (target.protocol !== "http:" && target.protocol !== "https:")
        return { refusal: hostRefusal("not an http or https URL") };
      if (target.username !== "" || target.password !== "")
        return { refusal: hostRefusal("URLs with credentials are not fetched") };
      const host = target.hostname.replace(/^\[|\]$/g, "");
      if (!isAllowedHost(hosts, host))
        return { refusal: hostRefusal("the image host is not on the proxy's allowlist") };
      // Node connects to an IP literal without a lookup: check it here.
      const literal = isIP(host) !== 0;
      if (literal && !addressAllowed(host))
        return { refusal: hostRefusal("the image host is not a public address") };
      // `URL` leaves the port empty when it is the scheme's default (80 for http, 443 for https).
      const port = target.port === "" ? (target.protocol === "https:" ? 443 : 80) : Number(target.port);
      if (
        !(IMAGE_PROXY_PORTS as readonly number[]).includes(port) &&
        !(allowLoopback && literal && isLoopbackAddress(host))
      )
        return {
          refusal: {
            code: "IMAGE_PORT_NOT_ALLOWED",
            message: `the image proxy fetches from ports ${IMAGE_PROXY_PORTS.join(" and ")} only`,
          },
        };
      return { target };
    },
  };
}
