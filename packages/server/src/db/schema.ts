import type { ColumnType, Generated } from "kysely";

/**
 * Row types of every table, as the normalised drivers return them: int8 and
 * numeric come back as strings on both drivers, timestamptz as Date.
 */
export interface ApiKeysTable {
  id: string;
  hash: string;
  prefix: string;
  description: string;
  email: string;
  multiplier: number;
  revoked: Generated<boolean>;
  revoked_at: Date | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface IdempotencyRecordsTable {
  scope: string;
  idempotency_key: string;
  fingerprint: string;
  state: "pending" | "done";
  status: number | null;
  headers: ColumnType<Record<string, string> | null, string | null, string | null>;
  body: string | null;
  created_at: Generated<Date>;
  expires_at: Date;
}

export interface MigrationsTable {
  id: string;
  checksum: string;
  applied_at: Generated<Date>;
}

export interface DB {
  api_keys: ApiKeysTable;
  idempotency_records: IdempotencyRecordsTable;
  mkt_migrations: MigrationsTable;
}
