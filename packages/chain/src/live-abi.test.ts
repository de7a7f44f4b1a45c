import type { Abi, AbiEvent, AbiFunction, AbiParameter } from "viem";
import { toEventSelector, toFunctionSelector } from "viem";
import { describe, expect, it } from "vitest";
import { boosterDropAbi, boosterTokenAbi, dropFactoryAbi } from "./generated/abis.ts";
import { liveBoosterDropAbi, liveBoosterTokenAbi, liveDropCreatorAbi } from "./live-abi.ts";

/** The canonical type of a parameter, tuples spelled out, as selectors and topics hash it. */
function canonicalType(parameter: AbiParameter): string {
  if (!parameter.type.startsWith("tuple")) return parameter.type;
  const components = "components" in parameter ? parameter.components : [];
  return `(${components.map(canonicalType).join(",")})${parameter.type.slice("tuple".length)}`;
}

/** Views may be pure in our contracts (constants) and view in the live interface: both only read. */
function mutability(fn: AbiFunction): string {
  return fn.stateMutability === "pure" ? "view" : fn.stateMutability;
}

function describeFunction(fn: AbiFunction) {
  return {
    selector: toFunctionSelector(fn),
    mutability: mutability(fn),
    outputs: fn.outputs.map(canonicalType),
  };
}

function describeEvent(event: AbiEvent) {
  return { topic: toEventSelector(event), indexed: event.inputs.map((input) => input.indexed === true) };
}

const liveAbis: Abi[] = [liveBoosterDropAbi, liveBoosterTokenAbi, liveDropCreatorAbi];
const functionsOf = (abi: Abi) => abi.filter((item): item is AbiFunction => item.type === "function");

const pairs: [string, Abi, Abi][] = [
  ["BoosterDrop", liveBoosterDropAbi, boosterDropAbi],
  ["BoosterToken", liveBoosterTokenAbi, boosterTokenAbi],
  ["DropFactory", liveDropCreatorAbi, dropFactoryAbi],
];

describe("the reference contracts speak the live interfaces", () => {
  it.each(pairs)(
    "%s has every live function, with its selector, mutability and outputs",
    (_, live, compiled) => {
      const ours = new Map(
        compiled
          .filter((item): item is AbiFunction => item.type === "function")
          .map((fn) => [toFunctionSelector(fn), describeFunction(fn)]),
      );
      const liveFunctions = live.filter((item): item is AbiFunction => item.type === "function");
      expect(liveFunctions.length).toBeGreaterThan(0);
      for (const fn of liveFunctions) {
        expect(ours.get(toFunctionSelector(fn)), fn.name).toEqual(describeFunction(fn));
      }
    },
  );

  it.each(pairs)(
    "%s declares every live event, with its topic and indexed parameters",
    (_, live, compiled) => {
      const ours = new Map(
        compiled
          .filter((item): item is AbiEvent => item.type === "event")
          .map((event) => [toEventSelector(event), describeEvent(event)]),
      );
      const liveEvents = live.filter((item): item is AbiEvent => item.type === "event");
      expect(liveEvents.length).toBeGreaterThan(0);
      for (const event of liveEvents) {
        expect(ours.get(toEventSelector(event)), event.name).toEqual(describeEvent(event));
      }
    },
  );

  it("keeps the live topics the facts name (a typo in live-abi.ts would move them)", () => {
    const topic = (abi: Abi, name: string) =>
      abi
        .filter((item): item is AbiEvent => item.type === "event" && item.name === name)
        .map(toEventSelector);
    // keccak256 of the event signatures as written in the live interfaces.
    expect(topic(liveBoosterDropAbi, "RarityAssigned")).toEqual([
      toEventSelector("RarityAssigned(uint256,bytes32)"),
    ]);
    expect(topic(liveBoosterTokenAbi, "TokensSold")).toEqual([
      toEventSelector("TokensSold(address,address,uint256,uint256)"),
      toEventSelector("TokensSold(address,uint256)"),
    ]);
    expect(functionsOf(liveDropCreatorAbi as Abi).map((fn) => toFunctionSelector(fn))).toEqual([
      toFunctionSelector(
        "createDropWithConfig(string,string,string,string,address,uint256,(string,uint256,uint256,uint256,uint256,uint256,uint256))",
      ),
    ]);
  });

  it("puts no extension on a live selector (extensions are additions, never changes)", () => {
    const liveFunctions = liveAbis.flatMap(functionsOf);
    const liveSelectors = new Set(liveFunctions.map((fn) => toFunctionSelector(fn)));
    const liveNames = new Set<string>(liveFunctions.map((fn) => fn.name));
    for (const compiled of [boosterDropAbi, boosterTokenAbi, dropFactoryAbi] as Abi[]) {
      for (const fn of compiled.filter((item): item is AbiFunction => item.type === "function")) {
        // An extension overloading a live name would make the live name ambiguous for clients.
        if (liveNames.has(fn.name)) expect(liveSelectors.has(toFunctionSelector(fn)), fn.name).toBe(true);
      }
    }
  });
});
