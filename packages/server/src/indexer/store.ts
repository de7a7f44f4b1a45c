import type { SqlConnection } from "../db/index.ts";

export type Row = Record<string, unknown>;

export interface StateTableSpec {
  name: string;
  key: readonly string[];
}

/** Tables whose rows are updated in place: reorgs undo them from the undo log. */
export const STATE_TABLES = {
  classic_games: { name: "classic_games", key: ["chain_id", "drop_address"] },
  classic_packs: { name: "classic_packs", key: ["chain_id", "contract_address", "token_id"] },
  market_drops: { name: "market_drops", key: ["runtime_id", "drop_id"] },
  predict_markets: { name: "predict_markets", key: ["chain_id", "address"] },
  predict_positions: { name: "predict_positions", key: ["chain_id", "market", "owner"] },
} as const satisfies Record<string, StateTableSpec>;

export type StateTableName = keyof typeof STATE_TABLES;

/** Tables only ever appended to, one row per log: reorgs delete their rows above the fork. */
export const APPEND_TABLES = ["chain_events", "market_claims", "predict_trades"] as const;
export type AppendTableName = (typeof APPEND_TABLES)[number];

const keyString = (spec: StateTableSpec, row: Row) =>
  spec.key.map((column) => String(row[column])).join("\u0000");

const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

/**
 * The writes of one batch of logs, applied in one transaction. Handlers read
 * and change state rows through an in-memory copy (loaded in bulk before the
 * batch runs), so a batch of any size costs a handful of statements:
 * one bulk load per table, one bulk upsert per table, one bulk insert per
 * append table. Rows changed in the unfinalised window get their previous
 * image in the undo log, once per row and block.
 */
export class BatchStore {
  private readonly rows = new Map<StateTableName, Map<string, Row | null>>();
  private readonly dirty = new Map<StateTableName, Set<string>>();
  private readonly lastUndoBlock = new Map<string, bigint>();
  private readonly undo: Array<{ block: bigint; table: string; key: Row; previous: Row | null }> = [];
  private readonly appends = new Map<AppendTableName, Row[]>();

  constructor(
    private readonly connection: SqlConnection,
    readonly scope: string,
    /** Changes in blocks above this number are undoable; null when the whole batch is final. */
    private readonly finalizedBlock: bigint | null,
    private readonly columns: Map<string, string[]>,
  ) {}

  /** Loads the rows with these keys (missing ones are remembered as absent). */
  async load(table: StateTableName, keys: Row[]): Promise<void> {
    const spec = STATE_TABLES[table];
    const cache = this.cacheOf(table);
    const wanted = new Map<string, Row>();
    for (const key of keys) {
      const id = keyString(spec, key);
      if (!cache.has(id)) wanted.set(id, key);
    }
    if (wanted.size === 0) return;
    const columns = spec.key.map(quote).join(", ");
    const { rows } = await this.connection.query<Row>(
      `SELECT t.* FROM ${quote(table)} t JOIN (SELECT DISTINCT ${columns} FROM json_populate_recordset(NULL::${quote(table)}, $1::json)) k USING (${columns})`,
      [JSON.stringify([...wanted.values()])],
    );
    for (const id of wanted.keys()) cache.set(id, null);
    for (const row of rows) cache.set(keyString(spec, row), row);
  }

  /** The current row, or undefined when it does not exist. The key must have been loaded or written in this batch. */
  get<T extends Row = Row>(table: StateTableName, key: Row): T | undefined {
    const id = keyString(STATE_TABLES[table], key);
    const cache = this.cacheOf(table);
    if (!cache.has(id)) throw new Error(`indexer bug: ${table} ${id} read before it was loaded`);
    return (cache.get(id) ?? undefined) as T | undefined;
  }

  /** Writes a whole row at `block`. Column values are JSON values: numerics as decimal strings, never bigint. */
  put(table: StateTableName, row: Row, block: bigint): void {
    const spec = STATE_TABLES[table];
    const id = keyString(spec, row);
    const cache = this.cacheOf(table);
    if (this.finalizedBlock !== null && block > this.finalizedBlock) {
      const undoId = `${table}\u0001${id}`;
      if (this.lastUndoBlock.get(undoId) !== block) {
        this.lastUndoBlock.set(undoId, block);
        const key = Object.fromEntries(spec.key.map((column) => [column, row[column]]));
        const previous = cache.get(id);
        this.undo.push({ block, table, key, previous: previous ? { ...previous } : null });
      }
    }
    cache.set(id, row);
    let set = this.dirty.get(table);
    if (!set) {
      set = new Set();
      this.dirty.set(table, set);
    }
    set.add(id);
  }

  append(table: AppendTableName, row: Row): void {
    let list = this.appends.get(table);
    if (!list) {
      list = [];
      this.appends.set(table, list);
    }
    list.push(row);
  }

  /** Writes everything buffered. */
  async flush(): Promise<void> {
    for (const [table, rows] of this.appends) {
      if (rows.length === 0) continue;
      await this.connection.query(
        `INSERT INTO ${quote(table)} SELECT * FROM json_populate_recordset(NULL::${quote(table)}, $1::json) ON CONFLICT DO NOTHING`,
        [JSON.stringify(rows)],
      );
    }
    for (const [table, ids] of this.dirty) {
      const cache = this.cacheOf(table);
      const rows = [...ids]
        .map((id) => cache.get(id))
        .filter((row): row is Row => row !== null && row !== undefined);
      if (rows.length === 0) continue;
      const spec = STATE_TABLES[table];
      const columns = this.columns.get(table) ?? [];
      const updates = columns
        .filter((column) => !spec.key.includes(column as never))
        .map((column) => `${quote(column)} = EXCLUDED.${quote(column)}`)
        .join(", ");
      await this.connection.query(
        `INSERT INTO ${quote(table)} SELECT * FROM json_populate_recordset(NULL::${quote(table)}, $1::json)
         ON CONFLICT (${spec.key.map(quote).join(", ")}) DO UPDATE SET ${updates}`,
        [JSON.stringify(rows)],
      );
    }
    if (this.undo.length > 0) {
      await this.connection.query(
        `INSERT INTO indexer_undo (scope, block_number, table_name, row_key, previous)
         SELECT $1, (u->>'block')::bigint, u->>'table', u->'key', u->'previous' FROM json_array_elements($2::json) u`,
        [this.scope, JSON.stringify(this.undo.map((entry) => ({ ...entry, block: entry.block.toString() })))],
      );
    }
  }

  private cacheOf(table: StateTableName) {
    let cache = this.rows.get(table);
    if (!cache) {
      cache = new Map();
      this.rows.set(table, cache);
    }
    return cache;
  }
}

/** Reads the column names of every projection table once. */
export async function readColumns(connection: SqlConnection): Promise<Map<string, string[]>> {
  const tables = [...Object.keys(STATE_TABLES), ...APPEND_TABLES];
  const { rows } = await connection.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = ANY($1::text[]) ORDER BY table_name, ordinal_position`,
    [tables],
  );
  const columns = new Map<string, string[]>();
  for (const row of rows) {
    const list = columns.get(row.table_name) ?? [];
    list.push(row.column_name);
    columns.set(row.table_name, list);
  }
  return columns;
}

/**
 * Rolls a scope back to `forkBlock`: replays the undo log backwards, then
 * deletes appended rows, undo entries and block hashes above the fork.
 */
export async function rollbackScope(
  connection: SqlConnection,
  scope: string,
  forkBlock: bigint,
): Promise<number> {
  const { rows } = await connection.query<{ table_name: string; row_key: Row; previous: Row | null }>(
    "SELECT table_name, row_key, previous FROM indexer_undo WHERE scope = $1 AND block_number > $2 ORDER BY seq DESC",
    [scope, forkBlock.toString()],
  );
  for (const entry of rows) {
    const spec = STATE_TABLES[entry.table_name as StateTableName];
    if (!spec) continue;
    const matches = spec.key.map((column) => `t.${quote(column)} = k.${quote(column)}`).join(" AND ");
    await connection.query(
      `DELETE FROM ${quote(spec.name)} t USING json_populate_record(NULL::${quote(spec.name)}, $1::json) k WHERE ${matches}`,
      [JSON.stringify(entry.row_key)],
    );
    if (entry.previous) {
      await connection.query(
        `INSERT INTO ${quote(spec.name)} SELECT * FROM json_populate_record(NULL::${quote(spec.name)}, $1::json)`,
        [JSON.stringify(entry.previous)],
      );
    }
  }
  for (const table of APPEND_TABLES) {
    await connection.query(`DELETE FROM ${quote(table)} WHERE scope = $1 AND block_number > $2`, [
      scope,
      forkBlock.toString(),
    ]);
  }
  await connection.query("DELETE FROM indexer_undo WHERE scope = $1 AND block_number > $2", [
    scope,
    forkBlock.toString(),
  ]);
  await connection.query("DELETE FROM indexer_blocks WHERE scope = $1 AND number > $2", [
    scope,
    forkBlock.toString(),
  ]);
  await connection.query("DELETE FROM indexer_contracts WHERE scope = $1 AND block_number > $2", [
    scope,
    forkBlock.toString(),
  ]);
  return rows.length;
}

/** Deletes everything a scope ever projected. */
export async function resetScope(connection: SqlConnection, scope: string): Promise<void> {
  for (const table of [
    ...Object.keys(STATE_TABLES),
    ...APPEND_TABLES,
    "indexer_undo",
    "indexer_blocks",
    "indexer_contracts",
  ]) {
    await connection.query(`DELETE FROM ${quote(table)} WHERE scope = $1`, [scope]);
  }
}
