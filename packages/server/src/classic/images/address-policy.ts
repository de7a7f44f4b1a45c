import { BlockList, isIP } from "node:net";

/**
 * Which hosts and addresses the image proxy may reach. The allowlist names
 * hosts; every address a host resolves to must also be public: private,
 * loopback, link-local, shared, documentation, multicast and reserved ranges
 * are refused, and so are IPv6 forms that embed an IPv4 address (mapped,
 * compatible, NAT64, 6to4, Teredo), since they could name a private one.
 */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  ["::", 96], // unspecified, loopback, IPv4-compatible
  ["::ffff:0:0", 96], // IPv4-mapped
  ["64:ff9b::", 96], // NAT64
  ["64:ff9b:1::", 48],
  ["100::", 64], // discard
  ["2001::", 23], // IETF protocol assignments, Teredo included
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, "ipv6");

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

const familyOf = (address: string) => (isIP(address) === 6 ? "ipv6" : "ipv4");

/** Whether `address` (an IP address) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  if (isIP(address) === 0) return false;
  return !NOT_PUBLIC.check(address, familyOf(address));
}

export function isLoopbackAddress(address: string): boolean {
  return isIP(address) !== 0 && LOOPBACK.check(address, familyOf(address));
}

/** Whether `hostname` (lowercase, as `URL.hostname` gives it) is on the allowlist; `*.example.com` covers subdomains only. */
export function isAllowedHost(allowlist: readonly string[], hostname: string): boolean {
  const host = hostname.replace(/\.$/, "");
  return allowlist.some((entry) =>
    entry.startsWith("*.") ? host.endsWith(entry.slice(1)) && host.length > entry.length - 1 : host === entry,
  );
}
