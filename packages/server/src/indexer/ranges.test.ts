import { describe, expect, it } from "vitest";
import {
  canJoin,
  finalizedBlock,
  headerBlocks,
  indexedBlock,
  MAX_LOGS_PER_WRITE,
  planRanges,
  spanAfterRead,
  spanAfterRefusal,
  undoableAbove,
} from "./ranges.ts";

describe("range sizing", () => {
  it("sizes the next ranges for 5,000 logs at the density just read", () => {
    // 100 blocks with 1,000 logs: 10 logs a block, so 500 blocks bring 5,000.
    expect(spanAfterRead({ span: 100, blocks: 100, logs: 1_000, maxSpan: 10_000 })).toBe(500);
    // Dense: 16 blocks with 40,000 logs shrink the span to 2 blocks.
    expect(spanAfterRead({ span: 16, blocks: 16, logs: 40_000, maxSpan: 10_000 })).toBe(2);
  });

  it("doubles after an empty range and stays between one block and the maximum", () => {
    expect(spanAfterRead({ span: 16, blocks: 16, logs: 0, maxSpan: 10_000 })).toBe(32);
    expect(spanAfterRead({ span: 8_000, blocks: 8_000, logs: 0, maxSpan: 10_000 })).toBe(10_000);
    expect(spanAfterRead({ span: 10, blocks: 10, logs: 3, maxSpan: 10_000 })).toBe(10_000);
    expect(spanAfterRead({ span: 1, blocks: 1, logs: 60_000, maxSpan: 10_000 })).toBe(1);
    expect(spanAfterRead({ span: 1, blocks: 1, logs: 0, maxSpan: 1 })).toBe(1);
  });

  it("cuts the refused range tenfold, and gives up at one block", () => {
    expect(spanAfterRefusal(2_000, 2_000)).toBe(200);
    // The refused range is what counts, not the span meanwhile raised by another read.
    expect(spanAfterRefusal(4_000, 50)).toBe(5);
    expect(spanAfterRefusal(8, 8)).toBe(1);
    expect(spanAfterRefusal(1, 1)).toBeUndefined();
  });
});

describe("read-ahead planning", () => {
  it("plans the range to write up to the latest block, unfinalised blocks included", () => {
    expect(
      planRanges({ from: 100n, latest: 105n, finalized: 102n, span: 16, count: 1, ahead: false }),
    ).toEqual([{ from: 100n, to: 105n }]);
    expect(
      planRanges({ from: 100n, latest: 200n, finalized: 190n, span: 16, count: 1, ahead: false }),
    ).toEqual([{ from: 100n, to: 115n }]);
  });

  it("reads ahead only finalised blocks, at most `count` ranges", () => {
    expect(
      planRanges({ from: 100n, latest: 200n, finalized: 125n, span: 10, count: 5, ahead: true }),
    ).toEqual([
      { from: 100n, to: 109n },
      { from: 110n, to: 119n },
      { from: 120n, to: 125n },
    ]);
    expect(
      planRanges({ from: 100n, latest: 200n, finalized: 199n, span: 10, count: 2, ahead: true }),
    ).toEqual([
      { from: 100n, to: 109n },
      { from: 110n, to: 119n },
    ]);
    expect(
      planRanges({ from: 126n, latest: 200n, finalized: 125n, span: 10, count: 2, ahead: true }),
    ).toEqual([]);
  });

  it("plans nothing past the latest block or for no count", () => {
    expect(
      planRanges({ from: 201n, latest: 200n, finalized: 200n, span: 10, count: 3, ahead: false }),
    ).toEqual([]);
    expect(
      planRanges({ from: 100n, latest: 200n, finalized: 200n, span: 10, count: 0, ahead: true }),
    ).toEqual([]);
  });
});

describe("what a write needs", () => {
  it("reads the headers of blocks with logs, both ends and every unfinalised block", () => {
    const numbers = headerBlocks({ from: 10n, to: 20n }, [12n, 12n, 15n], 17n);
    expect([...new Set(numbers)].sort((a, b) => (a < b ? -1 : 1))).toEqual([10n, 12n, 15n, 18n, 19n, 20n]);
    // A range entirely unfinalised needs every header.
    expect(new Set(headerBlocks({ from: 10n, to: 12n }, [], 5n))).toEqual(new Set([10n, 11n, 12n]));
  });

  it("joins ranges read ahead up to 20,000 logs a transaction", () => {
    expect(canJoin(15_000, 5_000)).toBe(true);
    expect(canJoin(15_000, 5_001)).toBe(false);
    expect(canJoin(0, MAX_LOGS_PER_WRITE + 1)).toBe(false);
  });

  it("keeps undo entries only for blocks above the finalised block", () => {
    expect(finalizedBlock(100n, 12)).toBe(88n);
    expect(undoableAbove(88n, 100n)).toBe(88n);
    expect(undoableAbove(88n, 88n)).toBeNull();
    expect(undoableAbove(88n, 50n)).toBeNull();
  });

  it("checks the head's last block only once something was indexed", () => {
    expect(indexedBlock({ nextBlock: 50n, blockHash: "0xab" }, 10n)).toBe(49n);
    expect(indexedBlock({ nextBlock: 10n, blockHash: "0xab" }, 10n)).toBeUndefined();
    expect(indexedBlock({ nextBlock: 50n, blockHash: null }, 10n)).toBeUndefined();
  });
});
