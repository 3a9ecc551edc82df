import { visible } from '../visible';

/**
 * Plain columns padded to their widest cell, for reading in a terminal; --json is for scripts.
 * Cells are shown with their control characters escaped: one row stays one line.
 */
export function formatTable(headers: string[], cells: string[][]): string {
  const rows = cells.map((row) => row.map(visible));
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}
