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
  classic_open_batches: { name: "classic_open_batches", key: ["chain_id", "drop_address", "batch_id"] },
  market_runtimes: { name: "market_runtimes", key: ["chain_id", "runtime_id"] },
  market_drops: { name: "market_drops", key: ["chain_id", "runtime_id", "drop_id"] },
  market_board_holdings: {
    name: "market_board_holdings",
    key: ["chain_id", "runtime_id", "owner", "drop_id"],
  },
  market_board_collectors: { name: "market_board_collectors", key: ["chain_id", "runtime_id", "owner"] },
  predict_markets: { name: "predict_markets", key: ["chain_id", "address"] },
  predict_positions: { name: "predict_positions", key: ["chain_id", "market", "owner"] },
  predict_traders: { name: "predict_traders", key: ["chain_id", "trader"] },
} as const satisfies Record<string, StateTableSpec>;

export type StateTableName = keyof typeof STATE_TABLES;

/**
 * Tables only ever appended to, one row per log, keyed by the log's position:
 * reorgs delete their rows above the fork. Each applied log is recorded in
 * exactly one of them: its domain table when its handler appends a row there
 * (a claim, a trade), else chain_events.
 */
export const APPEND_TABLES = {
  chain_events: { name: "chain_events", key: ["scope", "block_number", "log_index"] },
  market_claims: { name: "market_claims", key: ["chain_id", "block_number", "log_index"] },
  predict_trades: { name: "predict_trades", key: ["chain_id", "block_number", "log_index"] },
} as const satisfies Record<string, StateTableSpec>;
export type AppendTableName = keyof typeof APPEND_TABLES;

const keyString = (spec: StateTableSpec, row: Row) =>
  spec.key.map((column) => String(row[column])).join("\u0000");

/** An SQL identifier, quoted. */
export const quoteIdentifier = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;
const quote = quoteIdentifier;

/** A column of a projection table: its name and its type (`udt_name`: int8, numeric, text, jsonb, ...). */
export interface Column {
  name: string;
  type: string;
}

/**
 * The writes of one batch of logs, applied in one transaction. Handlers read
 * and change state rows through an in-memory copy (loaded in bulk before the
 * batch runs), so a batch of any size costs a handful of statements:
 * one bulk load per table, one multi-row upsert per table, one multi-row
 * insert per append table. Rows changed in the unfinalised window get their
 * previous image in the undo log, once per row and block.
 */
export class BatchStore {
  private readonly rows = new Map<StateTableName, Map<string, Row | null>>();
  private readonly dirty = new Map<StateTableName, Set<string>>();
  private readonly lastUndoBlock = new Map<string, bigint>();
  private readonly undo: Array<{ block: bigint; table: string; key: Row; previous: Row | null }> = [];
  private readonly appends = new Map<AppendTableName, Row[]>();
  /** Rows appended so far, all tables together: tells which logs a handler recorded. */
  appended = 0;

  constructor(
    private readonly connection: SqlConnection,
    readonly scope: string,
    /** Changes in blocks above this number are undoable; null when the whole batch is final. */
    private readonly finalizedBlock: bigint | null,
    private readonly columns: Map<string, Column[]>,
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
    // The keys travel as one typed array per key column, expanded by unnest.
    const types = new Map(this.columnsOf(table).map((column) => [column.name, column.type]));
    const keyRows = [...wanted.values()];
    const arrays = spec.key.map((column, i) => `$${i + 1}::${types.get(column)}[]`);
    const columns = spec.key.map(quote).join(", ");
    const { rows } = await this.connection.query<Row>(
      `SELECT t.* FROM ${quote(table)} t JOIN (SELECT DISTINCT * FROM unnest(${arrays.join(", ")}) AS k(${columns})) k USING (${columns})`,
      spec.key.map((column) =>
        arrayLiteral(
          keyRows.map((key) => key[column]),
          types.get(column)!,
        ),
      ),
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
    this.appended += 1;
  }

  /** The rows appended so far, by table. */
  appendedRows(): ReadonlyMap<AppendTableName, readonly Row[]> {
    return this.appends;
  }

  /** Rows `flush` writes into each table (appended, upserted, undo entries). */
  writtenRows(): Map<string, number> {
    const written = new Map<string, number>();
    for (const [table, rows] of this.appends) written.set(table, rows.length);
    for (const [table, ids] of this.dirty) written.set(table, ids.size);
    if (this.undo.length > 0) written.set("indexer_undo", this.undo.length);
    return written;
  }

  /** The appended rows already in the database (recovery), as `block_number:log_index` keys. */
  async recorded(): Promise<Set<string>> {
    const found = new Set<string>();
    for (const [table, rows] of this.appends) {
      if (rows.length === 0) continue;
      const columns = APPEND_TABLES[table].key.map(quote).join(", ");
      const result = await this.connection.query<{ block_number: string; log_index: number }>(
        `SELECT t.block_number, t.log_index FROM ${quote(table)} t
         JOIN (SELECT DISTINCT ${columns} FROM json_populate_recordset(NULL::${quote(table)}, $1::json)) k USING (${columns})`,
        [
          JSON.stringify(
            rows.map((row) => Object.fromEntries(APPEND_TABLES[table].key.map((c) => [c, row[c]]))),
          ),
        ],
      );
      for (const row of result.rows) found.add(`${row.block_number}:${row.log_index}`);
    }
    return found;
  }

  /**
   * Writes everything buffered. Appended rows are new by construction (the
   * caller holds the scope's head row and writes only logs nothing has
   * recorded), so they are plain inserts: a conflict is a bug and fails the batch.
   */
  async flush(): Promise<void> {
    for (const [table, rows] of this.appends) {
      if (rows.length === 0) continue;
      const [sql, params] = multiRowInsert(table, this.columnsOf(table), rows);
      await this.connection.query(sql, params);
    }
    for (const [table, ids] of this.dirty) {
      const cache = this.cacheOf(table);
      const rows = [...ids]
        .map((id) => cache.get(id))
        .filter((row): row is Row => row !== null && row !== undefined);
      if (rows.length === 0) continue;
      const spec = STATE_TABLES[table];
      const columns = this.columnsOf(table);
      const updates = columns
        .filter((column) => !spec.key.includes(column.name as never))
        .map((column) => `${quote(column.name)} = EXCLUDED.${quote(column.name)}`)
        .join(", ");
      const [sql, params] = multiRowInsert(table, columns, rows);
      await this.connection.query(
        `${sql} ON CONFLICT (${spec.key.map(quote).join(", ")}) DO UPDATE SET ${updates}`,
        params,
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

  private columnsOf(table: string): Column[] {
    const columns = this.columns.get(table);
    if (!columns || columns.length === 0) throw new Error(`indexer bug: no columns known for ${table}`);
    return columns;
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

/** Text an array literal element may hold without quotes (when it does not read NULL). */
const BARE_ELEMENT = /^[0-9A-Za-z_.:+-]+$/;
/** Types whose values' text never needs quotes in an array literal. */
const BARE_TYPES = new Set(["int2", "int4", "int8", "numeric", "float4", "float8", "bool", "timestamptz"]);

/** The values of one column as a PostgreSQL array literal. */
function arrayLiteral(values: readonly unknown[], type: string): string {
  const bare = BARE_TYPES.has(type);
  const parts = new Array<string>(values.length);
  // Neighbouring rows often share a value (block, time, transaction): its text is made once.
  let previous: unknown = parts;
  let text = "";
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value !== previous) {
      previous = value;
      if (value === null || value === undefined) text = "NULL";
      else {
        text = value instanceof Date ? value.toISOString() : String(value);
        if (!bare && !(BARE_ELEMENT.test(text) && text.toUpperCase() !== "NULL"))
          text = `"${text.replace(/["\\]/g, "\\$&")}"`;
      }
    }
    parts[i] = text;
  }
  return `{${parts.join(",")}}`;
}

const sameValue = (a: unknown, b: unknown) =>
  a === b || (a instanceof Date && b instanceof Date && a.getTime() === b.getTime());

/**
 * One INSERT of many rows that both drivers run as one statement: each column
 * travels as one typed array literal (`$n::numeric[]`) expanded by unnest, or
 * as one value when every row has the same. A json or jsonb column travels as
 * a text array of JSON texts, each cast on the way in (a JSON `null` or an
 * absent value is SQL NULL). Row values are JSON values (numerics as decimal
 * strings), Dates or bigints; json values hold no bigint.
 */
export function multiRowInsert(table: string, columns: Column[], rows: Row[]): [string, unknown[]] {
  const params: unknown[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const selected: string[] = [];
  const arrays: string[] = [];
  const first = rows[0] ?? {};
  for (const column of columns) {
    const name = column.name;
    if (column.type === "json" || column.type === "jsonb") {
      const texts = rows.map((row) =>
        row[name] === null || row[name] === undefined ? null : JSON.stringify(row[name]),
      );
      selected.push(`u.c${arrays.length}::${column.type}`);
      arrays.push(`${param(arrayLiteral(texts, "text"))}::text[]`);
      continue;
    }
    const value = first[name];
    if (rows.length > 1 && rows.every((row) => sameValue(row[name], value))) {
      const text = value === null || value === undefined ? null : arrayElementText(value);
      selected.push(`${param(text)}::${column.type}`);
      continue;
    }
    selected.push(`u.c${arrays.length}`);
    arrays.push(
      `${param(
        arrayLiteral(
          rows.map((row) => row[name]),
          column.type,
        ),
      )}::${column.type}[]`,
    );
  }
  // With every column constant, unnest still needs one array to run over.
  if (arrays.length === 0) arrays.push(`${param(`{${rows.map(() => "0").join(",")}}`)}::int[]`);
  const aliases = arrays.map((_, i) => `c${i}`).join(", ");
  return [
    `INSERT INTO ${quote(table)} (${columns.map((column) => quote(column.name)).join(", ")})
     SELECT ${selected.join(", ")} FROM unnest(${arrays.join(", ")}) AS u(${aliases})`,
    params,
  ];
}

/** A value as the text a parameter carries. */
function arrayElementText(value: unknown): string {
  return value instanceof Date ? value.toISOString() : String(value);
}

/** Reads the columns (name and type) of every projection table once. */
export async function readColumns(connection: SqlConnection): Promise<Map<string, Column[]>> {
  const tables = [...Object.keys(STATE_TABLES), ...Object.keys(APPEND_TABLES)];
  const { rows } = await connection.query<{ table_name: string; column_name: string; udt_name: string }>(
    `SELECT table_name, column_name, udt_name FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = ANY($1::text[]) ORDER BY table_name, ordinal_position`,
    [tables],
  );
  const columns = new Map<string, Column[]>();
  for (const row of rows) {
    const list = columns.get(row.table_name) ?? [];
    list.push({ name: row.column_name, type: row.udt_name });
    columns.set(row.table_name, list);
  }
  return columns;
}
