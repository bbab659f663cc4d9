import type { CliIo } from './command';

/** Columns padded to their widest cell, two spaces apart, with no trailing spaces. */
function table(rows: string[][]): string[] {
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd(),
  );
}

/** What every list command prints: a table under its header, then a count such as `2 user(s)`. */
export function printTable(
  io: Pick<CliIo, 'out'>,
  header: string[],
  rows: string[][],
  summary: string,
): void {
  for (const line of table([header, ...rows])) io.out(line);
  io.out(summary);
}
