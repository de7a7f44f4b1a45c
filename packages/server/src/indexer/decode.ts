import { type Abi, type AbiEvent, decodeEventLog, type Hex, toEventSelector } from "viem";

export interface DecodedEvent {
  eventName: string;
  args: Record<string, unknown>;
}

/** Reads the 32-byte word at `start` (64 hex characters from there) of a hex string. */
type WordReader = (hex: string, start: number) => unknown;

/** Readers of one word per static ABI type; dynamic types have none. */
function readerFor(type: string): WordReader | undefined {
  if (type === "address") return (hex, start) => `0x${hex.slice(start + 24, start + 64)}`.toLowerCase();
  if (type === "bool") return (hex, start) => hex.charCodeAt(start + 63) === 0x31;
  // As viem: integers of 48 bits or fewer are numbers, wider ones bigint.
  const uint = /^uint(\d*)$/.exec(type);
  if (uint) {
    return Number(uint[1] || 256) <= 48
      ? (hex, start) => Number.parseInt(hex.slice(start, start + 64), 16)
      : (hex, start) => BigInt(`0x${hex.slice(start, start + 64)}`);
  }
  const int = /^int(\d*)$/.exec(type);
  if (int) {
    const bits = Number(int[1] || 256);
    return bits <= 48
      ? (hex, start) => Number(BigInt.asIntN(bits, BigInt(`0x${hex.slice(start, start + 64)}`)))
      : (hex, start) => BigInt.asIntN(bits, BigInt(`0x${hex.slice(start, start + 64)}`));
  }
  if (/^bytes\d+$/.test(type)) {
    const size = Number(type.slice(5));
    return (hex, start) => `0x${hex.slice(start, start + size * 2)}`.toLowerCase();
  }
  return undefined;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** viem returns checksummed addresses; the projection keeps every address lowercase. */
function lowerAddresses(value: unknown): unknown {
  if (typeof value === "string" && ADDRESS.test(value)) return value.toLowerCase();
  if (Array.isArray(value)) return value.map(lowerAddresses);
  return value;
}

/**
 * Decodes the logs of one ABI. Events whose arguments are all static types
 * (uint, int, address, bool, bytesN) are read word by word, with addresses
 * lowercase; others go through viem's decoder, addresses lowercased too. viem checksums every address
 * it decodes (a keccak hash each), which made decoding the largest cost of a
 * backfill of transfers and claims.
 */
export function createLogDecoder(abi: Abi) {
  const events = new Map<
    string,
    { event: AbiEvent; fast: Array<{ name: string; indexed: boolean; read: WordReader }> | undefined }
  >();
  for (const item of abi) {
    if (item.type !== "event" || item.anonymous) continue;
    const readers = item.inputs.map((input) => ({
      name: input.name ?? "",
      indexed: input.indexed === true,
      read: readerFor(input.type),
    }));
    const fast = readers.every((reader) => reader.read !== undefined && reader.name !== "")
      ? (readers as Array<{ name: string; indexed: boolean; read: WordReader }>)
      : undefined;
    events.set(toEventSelector(item).toLowerCase(), { event: item, fast });
  }
  return (data: Hex, topics: readonly Hex[]): DecodedEvent | undefined => {
    const selector = topics[0]?.toLowerCase();
    const entry = selector ? events.get(selector) : undefined;
    if (!entry) return undefined;
    if (!entry.fast) {
      const decoded = decodeEventLog({ abi: [entry.event], data, topics: topics as [Hex, ...Hex[]] });
      const args: Record<string, unknown> = {};
      for (const [name, value] of Object.entries((decoded.args ?? {}) as Record<string, unknown>))
        args[name] = lowerAddresses(value);
      return { eventName: entry.event.name, args };
    }
    const args: Record<string, unknown> = {};
    let topic = 1;
    let offset = 2;
    for (const input of entry.fast) {
      if (input.indexed) {
        const value = topics[topic++];
        if (value === undefined || value.length !== 66) return undefined;
        args[input.name] = input.read(value, 2);
      } else {
        if (data.length < offset + 64) return undefined;
        args[input.name] = input.read(data, offset);
        offset += 64;
      }
    }
    return { eventName: entry.event.name, args };
  };
}
