// The SQL one request runs, as the pg driver sends it: the scale benchmark replays it directly, the
// plan tests EXPLAIN it.
import pg from "pg";

/** One statement as the pg driver sent it. */
export interface CapturedStatement {
  text: string;
  values: unknown[] | undefined;
}

type QueryFn = (...args: unknown[]) => unknown;

/**
 * Records every statement the pg driver of this process sends while `fn`
 * runs (text and values; LISTEN/UNLISTEN of background listeners left out).
 */
export async function captureStatements<T>(
  fn: () => Promise<T>,
): Promise<{ result: T; statements: CapturedStatement[] }> {
  const statements: CapturedStatement[] = [];
  const prototype = pg.Client.prototype as unknown as { query: QueryFn };
  const original = prototype.query;
  prototype.query = function (this: unknown, ...args: unknown[]) {
    const [first, second] = args;
    const text =
      typeof first === "string" ? first : ((first as { text?: string } | undefined)?.text ?? undefined);
    const values = Array.isArray(second)
      ? second
      : ((first as { values?: unknown[] } | undefined)?.values ?? undefined);
    if (text !== undefined && !/^\s*(UN)?LISTEN\b/i.test(text)) statements.push({ text, values });
    return original.apply(this, args);
  };
  try {
    const result = await fn();
    return { result, statements };
  } finally {
    prototype.query = original;
  }
}

/** A node of an `EXPLAIN (FORMAT JSON)` plan, with the fields the plan tests read. */
export interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Cond"?: string;
  "Recheck Cond"?: string;
  Plans?: PlanNode[];
}

/** Every node of a plan, depth first. */
export const planNodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(planNodes)];
