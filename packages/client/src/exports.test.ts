import { readdirSync, readFileSync } from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const source = (name: string) =>
  ts.createSourceFile(name, readFileSync(new URL(name, import.meta.url), "utf8"), ts.ScriptTarget.Latest);

/** The protocol types a module of the SDK names: what its methods take and return. */
function protocolTypesNamedBy(file: ts.SourceFile): string[] {
  const names: string[] = [];
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement)) continue;
    if ((statement.moduleSpecifier as ts.StringLiteral).text !== "@mkt/protocol") continue;
    const clause = statement.importClause;
    const bindings = clause?.namedBindings;
    if (!clause || !bindings || !ts.isNamedImports(bindings)) continue;
    for (const element of bindings.elements) {
      const name = (element.propertyName ?? element.name).text;
      // Types are capitalised; a schema imported as a type (`typeof classicGamesQuerySchema`) is not.
      if ((clause.isTypeOnly || element.isTypeOnly) && /^[A-Z]/.test(name)) names.push(name);
    }
  }
  return names;
}

function exportedNames(file: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const statement of file.statements) {
    if (!ts.isExportDeclaration(statement) || !statement.exportClause) continue;
    if (!ts.isNamedExports(statement.exportClause)) continue;
    for (const element of statement.exportClause.elements) names.add(element.name.text);
  }
  return names;
}

describe("@mkt/client exports", () => {
  it("names every protocol type its methods take or return, so no integrator needs @mkt/protocol", () => {
    const modules = readdirSync(new URL(".", import.meta.url)).filter(
      (name) => name.endsWith(".ts") && !name.endsWith(".test.ts") && name !== "index.ts",
    );
    const exported = exportedNames(source("index.ts"));
    const named = modules.flatMap((name) => protocolTypesNamedBy(source(name)));
    expect(named.length).toBeGreaterThan(50);
    expect([...new Set(named)].filter((name) => !exported.has(name)).sort()).toEqual([]);
  });

  it("exports one signer type and one error type, and none of the signer shapes it replaced", () => {
    const exported = exportedNames(source("index.ts"));
    expect(
      ["MktSigner", "SigningOptions", "MktApiError", "MktSurface", "RetryPolicy"].filter(
        (name) => !exported.has(name),
      ),
    ).toEqual([]);
    expect(
      ["ActionSigner", "ReleaseSigner", "ClassicSigner", "MessageSigner", "ActionOptions"].filter((name) =>
        exported.has(name),
      ),
    ).toEqual([]);
  });
});
