/**
 * CSV for spreadsheets to read without cleaning (the report tables' export, the activity
 * log's changes): fields quoted when they hold a comma, quote or line break; text that a
 * spreadsheet would run as a formula prefixed with an apostrophe; ids kept as text
 * (`="772182579262523445"`, which Excel, LibreOffice and Google Sheets keep as typed, where a
 * bare id above 15 digits would be rounded); and the download of a built file.
 */

/** A CSV field: quoted when needed, formulas defused. */
export function csvField(text: string): string {
  const safe = /^[=+@\t\r]/.test(text) || (/^-/.test(text) && !/^-[\d.]/.test(text)) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** An id as spreadsheet text: a formula of the string, so no digit is lost. */
export function csvId(value: string): string {
  return /^\d+$/.test(value) ? `="${value}"` : csvField(value);
}

/** Lines of fields as CSV, each ended by CRLF (as RFC 4180 writes them). */
export function csvLines(rows: readonly (readonly string[])[]): string {
  return rows.map((fields) => `${fields.join(',')}\r\n`).join('');
}

/** Saves `text` as `fileName` (UTF-8 with a byte-order mark, so Excel reads accents). */
export function downloadCsv(text: string, fileName: string) {
  const blob = new Blob(['\ufeff', text], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
