import ts from "typescript";
import { describe, expect, it } from "vitest";
import { readSource, trackedSources } from "./_test/tracked-sources.ts";

// A comment is read by someone who has only the repository: it states
// the rule or the reason itself, never an issue's number, and never a numbered section of a document that
// is not in the repository; where we describe the rule ourselves, it names our doc and its heading.
// Checked on every tracked .ts file of packages/ and bench/, and on small sources that break it.

/** What a comment may not say: an issue number, or a section number. */
const FORBIDDEN = [/\bissues? #?\d+\b/i, /\bsections? \d+/i];

/** Every comment of a source, once each, with the line it starts on (1-based). */
function comments(fileName: string, text: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const seen = new Map<number, ts.CommentRange>();
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) seen.set(range.pos, range);
  };
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(text, node.pos));
    collect(ts.getTrailingCommentRanges(text, node.end));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...seen.values()]
    .sort((a, b) => a.pos - b.pos)
    .map((range) => ({
      line: source.getLineAndCharacterOfPosition(range.pos).line + 1,
      text: text.slice(range.pos, range.end),
    }));
}

/** Whether one line of a comment cites an issue or a section. */
function cites(row: string | undefined): boolean {
  return FORBIDDEN.some((re) => re.test(row ?? ""));
}

/** `line` of every place in `text` where a comment cites an issue or a section; a citation may wrap. */
function citations(fileName: string, text: string): number[] {
  const lines: number[] = [];
  if (!/issue|section/i.test(text)) return lines; // nothing to parse for
  for (const comment of comments(fileName, text)) {
    const rows = comment.text.split("\n");
    // Each line, without its comment markers, and each line joined with the next (a wrapped citation).
    const bare = rows.map((row) => row.replace(/^\s*(\/\/+|\/\*+|\*+(?!\/))?/, "").replace(/\*+\/\s*$/, ""));
    for (let i = 0; i < bare.length; i++) {
      const joined = `${bare[i]} ${bare[i + 1] ?? ""}`.replace(/\s+/g, " ");
      const wrapped = !cites(bare[i + 1]) && cites(joined);
      if (cites(bare[i]) || wrapped) lines.push(comment.line + i);
    }
  }
  return [...new Set(lines)];
}

describe("comments need nothing outside the repository", () => {
  it("holds on every tracked .ts file of packages/ and bench/", () => {
    const files = trackedSources();
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((path) => citations(path, readSource(path)).map((line) => `${path}:${line}`));
    expect(found).toEqual([]);
  });

  it("finds a citation in any comment, and nowhere else", () => {
    const text = [
      "// The feed serves a finalized projection (issue 15).", // 1
      "/** Rarity codes (section 2): 0 not assigned. */", // 2
      "/**", // 3
      " * Bearer tokens (classic-api.md section", // 4: wraps onto the next line
      " * 5), built on sessions.", // 5
      " */", // 6
      "const a = 1; // see Issues #7", // 7
      "const b = { c: 2 /* sections 4 and 6 */ };", // 8
      'const d = "issue 14, section 5 (a string, not a comment)";', // 9
      "const e = `// issue 3 inside a template`;", // 10
      "// Recovery (docs/classic.md, Recovery): the issuer of 4 tokens, a sectional 5.", // 11
      "export { a, b, d, e };", // 12
      "// issue 9 at the end", // 13
    ].join("\n");
    expect(citations("sample.ts", text)).toEqual([1, 2, 4, 7, 8, 13]);
  });
});
