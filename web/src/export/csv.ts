// CSV the page writes itself (the side-by-side comparison of summaries).
// Per-run flows and summary CSVs come from the engine, byte-identical to
// `dcsim run`. RFC 4180: comma separated, CRLF-free "\n" rows like the
// engine's writer, fields quoted when they hold a comma, quote or newline.

/** Quotes one field if it needs it. */
export function csvField(x: unknown): string {
  const s = x === null || x === undefined ? '' : String(x);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Writes rows (the first is the header) as CSV text ending in a newline. */
export function writeCsv(rows: unknown[][]): string {
  return rows.map((r) => r.map(csvField).join(',')).join('\n') + '\n';
}

/** Parses CSV text (RFC 4180, as written above or by the engine) into rows. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let f = '';
  let q = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (q) {
      if (c === '"' && text[i + 1] === '"') {
        f += '"';
        i++;
      } else if (c === '"') q = false;
      else f += c;
    } else if (c === '"') q = true;
    else if (c === ',') {
      row.push(f);
      f = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(f);
      rows.push(row);
      row = [];
      f = '';
    } else f += c;
  }
  if (f !== '' || row.length) {
    row.push(f);
    rows.push(row);
  }
  return rows;
}

/**
 * Merges one-row summary CSVs (each with the same header, as the engine
 * writes them) into one table: the header once, then each run's row.
 */
export function mergeSummaryCsvs(csvs: string[]): string {
  const tables = csvs.filter((c) => c.trim()).map(parseCsv);
  if (tables.length === 0) return '';
  const header = tables[0][0];
  for (const t of tables) {
    if (t[0].join(',') !== header.join(',')) throw new Error('summary CSVs have different columns');
  }
  return writeCsv([header, ...tables.flatMap((t) => t.slice(1))]);
}
