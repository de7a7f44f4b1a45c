import { isIPv6 } from "node:net";

/**
 * The group a client address is counted in by every per-IP counter (key
 * creation, failed key attempts, per-IP budgets, the proxy's budget).
 *
 * - IPv4: the address itself.
 * - IPv4-mapped IPv6 (`::ffff:192.0.2.1`): the IPv4 address, so a dual-stack
 *   listener counts a client once whichever way it arrives.
 * - Any other IPv6 address: its /64 prefix. One host usually holds a whole /64
 *   (SLAAC, privacy addresses), so counting single addresses would let it
 *   mint unlimited keys and budgets.
 */
export function clientGroup(ip: string): string {
  if (!ip.includes(":")) return ip;
  const lower = ip.toLowerCase();
  const mapped = /^(?:0{0,4}:){0,4}:?(?:0{0,4}:)?ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(lower);
  if (mapped?.[1]) return mapped[1];
  const zone = lower.indexOf("%");
  const address = zone === -1 ? lower : lower.slice(0, zone);
  if (!isIPv6(address)) return lower;
  return `${expandIPv6(address).slice(0, 4).join(":")}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, without leading zeros. */
function expandIPv6(address: string): string[] {
  let text = address;
  // A trailing dotted IPv4 part (`::1.2.3.4`) is two groups.
  const dotted = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const zeros = tail === undefined ? [] : Array.from({ length: 8 - left.length - right.length }, () => "0");
  return [...left, ...zeros, ...right].map((group) => Number.parseInt(group, 16).toString(16));
}
