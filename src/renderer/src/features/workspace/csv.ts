import Papa from 'papaparse';

/** CSV (quoted fields, doubled quotes, newlines inside quotes) or, when told, tab-separated, up to `maxRows` rows. */
export function parseCsv(text: string, separator = ',', maxRows = 1000): { rows: string[][]; truncated: boolean } {
  // one line ending for the parser: files that mix CRLF and LF are common enough in a preview
  const parsed = Papa.parse<string[]>(text.replace(/\r\n?/g, '\n'), {
    delimiter: separator,
    newline: '\n',
    // one row past the limit tells whether there was more
    preview: maxRows + 1,
    skipEmptyLines: true,
  });
  return { rows: parsed.data.slice(0, maxRows), truncated: parsed.data.length > maxRows };
}
