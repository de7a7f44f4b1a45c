import { BlockList, isIP } from "node:net";

/**
 * Which hosts and addresses the image proxy may reach. The allowlist names
 * hosts; every address a host resolves to must also be public: private,
 * loopback, link-local, shared, documentation, multicast and reserved ranges
 * are refused, and so are IPv6 forms that embed an IPv4 address (mapped,
 * compatible, NAT64, 6to4, Teredo), since they could name a private one.
 */
// One list per family: a BlockList checks an IPv4 address against its IPv6
// rules too (as ::ffff:a.b.c.d), so ::ffff:0:0/96 would block every IPv4 address.
const NOT_PUBLIC_V4 = new BlockList();
const NOT_PUBLIC_V6 = new BlockList();
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
  NOT_PUBLIC_V4.addSubnet(network, prefix, "ipv4");
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
  NOT_PUBLIC_V6.addSubnet(network, prefix, "ipv6");

const LOOPBACK_V4 = new BlockList();
LOOPBACK_V4.addSubnet("127.0.0.0", 8, "ipv4");

/** Whether `address` (an IP address) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  switch (isIP(address)) {
    case 4:
      return !NOT_PUBLIC_V4.check(address, "ipv4");
    case 6:
      return !NOT_PUBLIC_V6.check(address, "ipv6");
    default:
      return false;
  }
}

export function isLoopbackAddress(address: string): boolean {
  switch (isIP(address)) {
    case 4:
      return LOOPBACK_V4.check(address, "ipv4");
    case 6:
      return address === "::1" || /^0{0,4}(:0{0,4}){6}:0{0,3}1$/.test(address);
    default:
      return false;
  }
}

/** Whether `hostname` (lowercase, as `URL.hostname` gives it) is on the allowlist; `*.example.com` covers subdomains only. */
export function isAllowedHost(allowlist: readonly string[], hostname: string): boolean {
  const host = hostname.replace(/\.$/, "");
  return allowlist.some((entry) =>
    entry.startsWith("*.") ? host.endsWith(entry.slice(1)) && host.length > entry.length - 1 : host === entry,
  );
}
