import { beforeAll, describe, expect, it } from "vitest";
import type { CompiledArtifacts } from "./compile.ts";
import { CONTRACT_NAMES, checkArtifacts, compileContracts } from "./compile.ts";
import { dropFactoryAbi } from "./generated/abis.ts";

describe("contract artifacts", () => {
  let compiled: { artifacts: CompiledArtifacts; warnings: string[] };
  beforeAll(() => {
    compiled = compileContracts();
  }, 60_000);

  it("match a fresh compilation of contracts/*.sol (run `npm run build -w @mkt/chain` if not)", () => {
    expect(checkArtifacts(compiled.artifacts)).toEqual({ upToDate: true, stale: [] });
  });

  it("compile without warnings and fit the EIP-170 code size limit", () => {
    expect(compiled.warnings).toEqual([]);
    for (const name of CONTRACT_NAMES) {
      const size = (compiled.artifacts.contracts[name].deployedBytecode.length - 2) / 2;
      expect(size, name).toBeGreaterThan(0);
      expect(size, name).toBeLessThanOrEqual(24_576);
    }
  });

  it("publish the ABIs the compiler produced", () => {
    expect(compiled.artifacts.contracts.DropFactory.abi).toEqual(dropFactoryAbi);
  });
});
