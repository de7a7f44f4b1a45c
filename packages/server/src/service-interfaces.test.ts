import ts from "typescript";
import { describe, expect, it } from "vitest";
import { readSource, trackedSources } from "./_test/tracked-sources.ts";

// A service's contract is its declared interface: `createX(...): X` beside `interface X`, with a
// line of doc per member, so a reader sees what a service does without reading its factory.
// Checked on every tracked non-test .ts file of packages/, and on small sources that break it.

/**
 * `Interface.member` for every member without a doc comment of an interface that a `create…`
 * factory of the same file declares as its result.
 */
function undocumentedMembers(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const interfaces = new Map<string, ts.InterfaceDeclaration>();
  for (const statement of source.statements)
    if (ts.isInterfaceDeclaration(statement)) interfaces.set(statement.name.text, statement);
  const missing: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isFunctionDeclaration(statement) || !statement.name?.text.startsWith("create")) continue;
    const result = statement.type;
    if (!result || !ts.isTypeReferenceNode(result)) continue;
    const contract = interfaces.get(result.typeName.getText(source));
    if (!contract) continue;
    for (const member of contract.members)
      if (ts.getJSDocCommentsAndTags(member).length === 0)
        missing.push(`${contract.name.text}.${member.name?.getText(source) ?? "(signature)"}`);
  }
  return missing;
}

/** `ReturnType<typeof create…>`: a service typed by its factory's inferred result instead of an interface. */
const INFERRED_SERVICE = /ReturnType<typeof create[A-Z]/;

describe("declared service interfaces", () => {
  const files = trackedSources().filter(
    (path) => /^packages\/[^/]+\/src\//.test(path) && !path.endsWith(".test.ts") && !path.includes("/_test/"),
  );

  it("every member of a factory's declared interface has a line of doc, in every source of packages/", () => {
    expect(files.length).toBeGreaterThan(300);
    const found = files.flatMap((path) =>
      undocumentedMembers(path, readSource(path)).map((member) => `${path}: ${member}`),
    );
    expect(found).toEqual([]);
  });

  it("no source types a service as its factory's inferred result", () => {
    const found = files.filter((path) => INFERRED_SERVICE.test(readSource(path)));
    expect(found).toEqual([]);
  });

  it("finds an undocumented member of a factory's interface, and only there", () => {
    const source = `
      export interface Counter {
        /** Adds one. */
        increment(): void;
        value(): number;
      }
      export interface Options { start: number }
      export function createCounter(options: Options): Counter {
        let n = options.start;
        return { increment: () => void n++, value: () => n };
      }`;
    expect(undocumentedMembers("counter.ts", source)).toEqual(["Counter.value"]);
    expect(INFERRED_SERVICE.test("export type Counter = ReturnType<typeof createCounter>;")).toBe(true);
  });
});
