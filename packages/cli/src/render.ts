/** Plain-text rendering for people: aligned tables, key-value blocks, progress bars, times. */

/** Columns padded to their widest cell; the last column is not padded. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join("  ")
      .trimEnd();
  return `${[line(header), ...rows.map(line)].join("\n")}\n`;
}

/** `name  value` lines, the names aligned. */
export function fields(entries: readonly (readonly [string, string])[]): string {
  const width = Math.max(...entries.map(([name]) => name.length));
  return `${entries.map(([name, value]) => `${name.padEnd(width)}  ${value}`).join("\n")}\n`;
}

/** A bar of `width` cells for a fraction in [0, 1], then the percentage: `██████░░░░  60.0%`. */
export function progressBar(fraction: number, width = 20): string {
  const clamped = Math.min(1, Math.max(0, fraction));
  const full = Math.floor(clamped * width);
  // Below 100% the bar never looks full, so a scope one block behind still reads as behind.
  const cells = clamped < 1 ? Math.min(full, width - 1) : width;
  const percent = (Math.floor(clamped * 1000) / 10).toFixed(1);
  return `${"█".repeat(cells)}${"░".repeat(width - cells)} ${percent.padStart(5)}%`;
}

/** A duration in words: `45 s`, `12 min`, `3 h`, `30 d`. */
export function duration(ms: number): string {
  const seconds = Math.round(Math.abs(ms) / 1000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.round(hours / 24)} d`;
}

/** An ISO time and how far it is from now: `2026-12-25T12:00:00.000Z (in 30 d)`. */
export function when(iso: string, now: number): string {
  const delta = Date.parse(iso) - now;
  return `${iso} (${delta >= 0 ? `in ${duration(delta)}` : `${duration(delta)} ago`})`;
}

export const yesNo = (value: boolean) => (value ? "yes" : "no");
