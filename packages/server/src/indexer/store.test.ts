import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupDatabase, type TestDatabase } from "../_test/database.ts";
import { type Column, multiRowInsert } from "./store.ts";

const COLUMNS: Column[] = [
  { name: "id", type: "int4" },
  { name: "label", type: "text" },
  { name: "amount", type: "numeric" },
  { name: "block", type: "int8" },
  { name: "at", type: "timestamptz" },
  { name: "flag", type: "bool" },
  { name: "args", type: "jsonb" },
];

describe("multi-row insert", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await setupDatabase();
    await database.db.withConnection((c) =>
      c.exec(
        "CREATE TABLE store_probe (id int4, label text, amount numeric, block int8, at timestamptz, flag bool, args jsonb)",
      ),
    );
  });
  afterAll(async () => {
    await database.close();
  });

  const roundTrip = async (rows: Array<Record<string, unknown>>) => {
    const [sql, params] = multiRowInsert("store_probe", COLUMNS, rows);
    return database.db.withConnection(async (c) => {
      await c.query("DELETE FROM store_probe");
      await c.query(sql, params);
      return (
        await c.query<Record<string, unknown>>(
          "SELECT id, label, amount, block, at, flag, args FROM store_probe ORDER BY id",
        )
      ).rows;
    });
  };

  it("keeps every value as written: any text, nulls, 78-digit numerics, times, booleans and json", async () => {
    const at = new Date("2026-09-10T12:34:56.789Z");
    const labels = [
      'quote " and backslash \\ and comma , and {braces}',
      "NULL",
      "null",
      "",
      " spaced out ",
      "line\nbreak\ttab",
      "émoji 🃏 ünïcode",
      "0xAbCdEf",
      null,
    ];
    const rows = labels.map((label, id) => ({
      id,
      label,
      amount: id % 2 === 0 ? `${"9".repeat(77)}${id}` : null,
      block: BigInt(id) * 10n ** 15n,
      at: id === 3 ? null : at,
      flag: id % 3 === 0,
      args: id === 4 ? null : { label, values: ["1", { nested: 'x"y' }] },
    }));
    const stored = await roundTrip(rows);
    expect(stored).toEqual(
      rows.map((row) => ({
        ...row,
        block: row.block.toString(),
        at: row.at === null ? null : at,
      })),
    );
  });

  it("sends a column every row shares as one value, and handles a single row", async () => {
    const at = new Date("2026-01-01T00:00:00.000Z");
    const shared = { label: 'same, "quoted"', amount: "5", block: "7", at, flag: true, args: { a: 1 } };
    const rows = [1, 2, 3].map((id) => ({ id, ...shared, at: new Date(at) }));
    const [sql, params] = multiRowInsert("store_probe", COLUMNS, rows);
    // Only id varies: it is one array, jsonb (always an array of JSON texts) the other; the rest are single values.
    expect(params.filter((param) => typeof param === "string" && param.startsWith("{"))).toEqual([
      "{1,2,3}",
      `{${Array(3).fill('"{\\"a\\":1}"').join(",")}}`,
    ]);
    expect(sql).toContain("unnest(");
    expect(await roundTrip(rows)).toEqual(rows.map((row) => ({ ...row, at })));
    const [single] = rows;
    expect(await roundTrip([single!])).toEqual([{ ...single, at }]);
  });
});
