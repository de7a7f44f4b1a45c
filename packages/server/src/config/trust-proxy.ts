import proxyAddr from "@fastify/proxy-addr";
import ipaddr from "ipaddr.js";

/**
 * `TRUST_PROXY` as a list of addresses, CIDRs (or `a.b.c.d/netmask`) and the
 * named ranges, checked at start with the parser Fastify itself uses
 * (`@fastify/proxy-addr`), so a value that would only fail once the server
 * builds its listener is refused before anything starts.
 *
 * A list whose ranges together hold every IPv4 address, or every IPv6
 * address, trusts any client as a proxy: any client could then choose its
 * own IP through `X-Forwarded-For`, and with it every per-IP budget and
 * lockout. Such a list is refused however it is split (`0.0.0.0/1,
 * 128.0.0.0/1`, an IPv4-mapped `::ffff:0:0/96`, `::/1,8000::/1`).
 *
 * Answers the list, or why it is refused.
 */
export function parseTrustProxyList(value: string): { list: string[] } | { error: string } {
  const list = value.split(",").map((item) => item.trim());
  for (const item of list) {
    try {
      proxyAddr.compile([item]);
    } catch (error) {
      if (/\/0+$/.test(item))
        return {
          error: `${item} trusts every address as a proxy, so any client could choose its own IP through X-Forwarded-For; list only the proxies in front of the server`,
        };
      return {
        error: `not a hop count, address, CIDR or named range (loopback, linklocal, uniquelocal): ${item || "(empty)"} (${(error as Error).message})`,
      };
    }
  }
  const ranges = list.flatMap((item) => NAMED_RANGES[item] ?? [item]).map(parseRange);
  for (const family of ["IPv4", "IPv6"] as const) {
    if (coversAll(family, ranges)) {
      return {
        error: `${value} trusts every ${family} address as a proxy, so any client could choose its own IP through X-Forwarded-For; list only the proxies in front of the server`,
      };
    }
  }
  return { list };
}

/**
 * The named ranges proxy-addr expands (its `IP_RANGES`), for the coverage
 * check; the list itself is handed to Fastify with the names.
 */
const NAMED_RANGES: Record<string, readonly string[]> = {
  linklocal: ["169.254.0.0/16", "fe80::/10"],
  loopback: ["127.0.0.1/8", "::1/128"],
  uniquelocal: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
};

/** The addresses one entry trusts, in the family a client is matched in. */
type Range = { family: "IPv4" | "IPv6"; first: bigint; last: bigint } | undefined;

const WIDTH = { IPv4: 32, IPv6: 128 } as const;

/**
 * One entry as proxy-addr reads it: a client's IPv4-mapped IPv6 address is
 * matched as IPv4, so an IPv6 range inside `::ffff:0:0/96` (and at least /96)
 * trusts IPv4 clients, and one outside it trusts native IPv6 clients only.
 */
function parseRange(entry: string): Range {
  const slash = entry.lastIndexOf("/");
  let ip = ipaddr.parse(slash === -1 ? entry : entry.slice(0, slash));
  if (slash === -1 && ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress()) {
    ip = (ip as ipaddr.IPv6).toIPv4Address();
  }
  const max = ip.kind() === "ipv4" ? 32 : 128;
  const suffix = slash === -1 ? undefined : entry.slice(slash + 1);
  const prefix =
    suffix === undefined
      ? max
      : /^\d+$/.test(suffix)
        ? Number(suffix)
        : (ipaddr.IPv4.parse(suffix).prefixLengthFromSubnetMask() ?? max);
  if (ip.kind() === "ipv4") return block("IPv4", ip.toByteArray(), prefix);
  const v6 = ip as ipaddr.IPv6;
  if (!v6.isIPv4MappedAddress()) return block("IPv6", v6.toByteArray(), prefix);
  return prefix >= 96 ? block("IPv4", v6.toIPv4Address().toByteArray(), prefix - 96) : undefined;
}

function block(family: "IPv4" | "IPv6", bytes: number[], prefix: number): Range {
  const value = bytes.reduce((sum, byte) => (sum << 8n) | BigInt(byte), 0n);
  const size = 1n << BigInt(WIDTH[family] - prefix);
  const first = value - (value % size);
  return { family, first, last: first + size - 1n };
}

/**
 * Whether the ranges of `family` leave no address of it untrusted. For IPv6
 * the IPv4-mapped block `::ffff:0:0/96` counts as held: its clients are
 * matched as IPv4, which the IPv4 check decides.
 */
function coversAll(family: "IPv4" | "IPv6", ranges: readonly Range[]): boolean {
  const held = ranges.filter((range) => range?.family === family) as { first: bigint; last: bigint }[];
  if (family === "IPv6") held.push({ first: 0xffffn << 32n, last: (0xffffn << 32n) | 0xffff_ffffn });
  held.sort((a, b) => (a.first < b.first ? -1 : a.first > b.first ? 1 : 0));
  const end = (1n << BigInt(WIDTH[family])) - 1n;
  let next = 0n;
  for (const { first, last } of held) {
    if (first > next) return false;
    if (last + 1n > next) next = last + 1n;
    if (next > end) return true;
  }
  return false;
}
