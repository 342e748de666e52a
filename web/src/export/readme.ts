// The data dictionary of the CSV exports: every column's meaning, unit and
// precision. The engine writes it (engine/core/src/report.rs
// `dictionary_markdown`, from the same column list as the CSV headers) and
// an engine test keeps docs/reference/csv.md equal to it; the page offers
// that file as the README beside its CSV downloads.

import dictionary from '../../../docs/reference/csv.md?raw';
import { download } from './download';

/** The CSV data dictionary as Markdown (docs/reference/csv.md). */
export const CSV_README: string = dictionary;

/** The README's file name in a download. */
export const CSV_README_NAME = 'dcsim-csv-README.md';

/** Downloads the CSV data dictionary as a Markdown file. */
export function downloadCsvReadme() {
  download(CSV_README_NAME, new Blob([CSV_README], { type: 'text/markdown;charset=utf-8' }));
}

/** The header names a Markdown table row of the dictionary documents (`| \`name\` | ...`). */
export function documentedColumns(readme: string = CSV_README): Set<string> {
  return new Set([...readme.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]));
}
