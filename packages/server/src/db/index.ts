export type { AvailabilityChange, DatabaseAvailability } from "./availability.ts";
export { PROBE_INTERVAL_MS } from "./availability.ts";
export type {
  AdvisoryLock,
  Database,
  DatabaseTarget,
  NotificationHandlers,
  PoolStats,
  QueryResult,
  SqlConnection,
} from "./database.ts";
export { openDatabase } from "./database.ts";
export {
  ConstraintViolationError,
  DatabaseError,
  DatabaseUnavailableError,
  isUniqueViolation,
  TransactionConflictError,
  translateDatabaseError,
} from "./errors.ts";
export type { Migration } from "./migrate.ts";
export { isMigrated, MigrationError, migrate, migrationsDir, readMigrations } from "./migrate.ts";
export type { DB, Executor } from "./schema.ts";
