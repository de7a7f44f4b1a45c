import { boosterDropAbi, boosterTokenAbi, claimDropsAbi, dropFactoryAbi, marketAbi } from "@mkt/chain";
import {
  type Abi,
  type AbiEvent,
  type AbiParameter,
  decodeEventLog,
  encodeAbiParameters,
  encodeEventTopics,
  type Hex,
} from "viem";
import { describe, expect, it } from "vitest";
import { createLogDecoder } from "./decode.ts";

/** A deterministic sample value for each ABI parameter (tuples field by field, arrays of two or their fixed length). */
function sample(param: { type: string; components?: readonly AbiParameter[] }, seed: number): unknown {
  const { type } = param;
  const array = /^(.*)\[(\d*)\]$/.exec(type);
  if (array) {
    const element = { ...param, type: array[1]! };
    return Array.from({ length: Number(array[2] || 2) }, (_, i) => sample(element, seed + i));
  }
  if (type === "tuple") {
    return Object.fromEntries((param.components ?? []).map((c, i) => [c.name, sample(c, seed + i)]));
  }
  if (type === "address") return `0x${(seed * 7919).toString(16).padStart(40, "a")}`.slice(0, 42);
  if (type === "bool") return seed % 2 === 0;
  if (type === "string") return `text ${seed}`;
  if (type.startsWith("uint")) return sampleUint(Number(type.slice(4)) || 256, seed);
  if (type.startsWith("int")) return -(1n << BigInt((Number(type.slice(3)) || 256) - 2)) - BigInt(seed);
  if (type === "bytes32") return `0x${seed.toString(16).padStart(64, "0")}`;
  throw new Error(`no sample for ${type}`);
}

/** The largest values of the width (viem decodes up to 48 bits as numbers). */
function sampleUint(bits: number, seed: number): bigint | number {
  const value = (1n << BigInt(bits)) - 1n - BigInt(seed);
  return bits <= 48 ? Number(value) : value;
}

function lowerAddresses(value: unknown): unknown {
  if (typeof value === "string" && /^0x[0-9a-fA-F]{40}$/.test(value)) return value.toLowerCase();
  return Array.isArray(value) ? value.map(lowerAddresses) : value;
}

describe("log decoder", () => {
  const abis: Abi[] = [claimDropsAbi, boosterDropAbi, boosterTokenAbi, dropFactoryAbi, marketAbi];
  const events = abis.flatMap((abi) =>
    abi.filter((item): item is AbiEvent => item.type === "event").map((event) => ({ abi, event })),
  );

  it.each(events.map(({ abi, event }) => [event.name, abi, event] as const))(
    "decodes %s exactly as viem does (addresses lowercase)",
    (_name, abi, event) => {
      const values = event.inputs.map((input, i) => sample(input, i + 3));
      const args = Object.fromEntries(event.inputs.map((input, i) => [input.name, values[i]]));
      const topics = encodeEventTopics({ abi: [event], eventName: event.name, args } as never) as Hex[];
      const data = encodeAbiParameters(
        event.inputs.filter((input) => !input.indexed),
        event.inputs.filter((input) => !input.indexed).map((input) => args[input.name!]),
      );
      const expected = decodeEventLog({ abi: [event], data, topics: topics as [Hex, ...Hex[]] });
      const decoded = createLogDecoder(abi)(data, topics);
      expect(decoded?.eventName).toBe(expected.eventName);
      const want = Object.fromEntries(
        Object.entries(expected.args as Record<string, unknown>).map(([k, v]) => [k, lowerAddresses(v)]),
      );
      expect(decoded?.args).toEqual(want);
    },
  );

  it("ignores logs of events the ABI does not describe, and truncated data", () => {
    const decode = createLogDecoder(claimDropsAbi);
    expect(decode("0x", [`0x${"12".repeat(32)}`])).toBeUndefined();
    const claimed = (claimDropsAbi as Abi).find(
      (item): item is AbiEvent => item.type === "event" && item.name === "Claimed",
    )!;
    const topics = encodeEventTopics({
      abi: [claimed],
      eventName: "Claimed",
      args: { owner: `0x${"1".repeat(40)}`, dropId: 1n },
    } as never) as Hex[];
    expect(decode("0x1234", topics)).toBeUndefined();
  });
});
