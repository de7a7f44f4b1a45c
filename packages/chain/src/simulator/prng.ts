import { encodeAbiParameters, hexToBigInt, keccak256 } from "viem";

/** A seeded pseudo-random source; the same seed gives the same sequence on every platform. */
export interface Prng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number;
  /** One of `items`, each as likely. */
  pick<T>(items: readonly T[]): T;
  /** True with `probability` (0 to 1). */
  chance(probability: number): boolean;
  /** Uniform 256-bit value, for ids that should use the whole uint256 range. */
  uint256(): bigint;
}

/** Mixes the demo seed with a label (e.g. the chain id) so each chain gets its own stream. */
export function deriveSeed(seed: bigint, label: bigint): number {
  const digest = hexToBigInt(
    keccak256(encodeAbiParameters([{ type: "uint256" }, { type: "uint256" }], [seed, label])),
  );
  return Number(digest & 0xffffffffn);
}

/** mulberry32: small, fast and good enough to drive demo traffic (not for anything adversarial). */
export function createPrng(seed: number): Prng {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick(items) {
      if (items.length === 0) throw new Error("cannot pick from an empty list");
      return items[int(0, items.length - 1)] as (typeof items)[number];
    },
    chance: (probability) => next() < probability,
    uint256() {
      let value = 0n;
      for (let i = 0; i < 8; i++) value = (value << 32n) | BigInt(Math.floor(next() * 4294967296));
      return value;
    },
  };
}
