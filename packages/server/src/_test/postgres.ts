export const TEMPLATE_PREFIX = "mkt_test_template_";

/** The maintenance database of the server DATABASE_URL points at, for CREATE/DROP DATABASE. */
export function adminUrlOf(url: string): string {
  const parsed = new URL(url);
  parsed.pathname = "/postgres";
  return parsed.toString();
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
