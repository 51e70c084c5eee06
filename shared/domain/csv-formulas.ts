/**
 * CSV injection (issue 43): a spreadsheet runs a cell that begins with `=`, `+`, `-` or `@` (also
 * after a tab or carriage return, and their full-width forms) as a formula, so a contributor's
 * `=HYPERLINK(...)` or `+cmd|'/C calc'!A0` in a name would run on the computer of whoever opens the
 * export. As OWASP advises, the export writes such a cell with a leading `'`, which a spreadsheet shows
 * as text; the import keeps that protection (and turns a protective leading tab, which the API would
 * trim away, into one).
 *
 * A cell that can only be arithmetic on numbers (`-12.5`, a phone `+47 22 33 44 55`, `-5`) is left
 * as it is: with no letter, reference or `|` it can call nothing, and a round trip keeps it.
 */
const FORMULA = /^[\t\r]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/;
const ARITHMETIC = /^[\t\r]*[+-][\d\s().,+-]*$/;

/** Whether a spreadsheet would read the cell as a formula that can do more than arithmetic. */
export const isFormula = (cell: string): boolean => FORMULA.test(cell) && !ARITHMETIC.test(cell);

/** A cell as the export writes it: a formula behind a `'`. */
export const escapeFormula = (cell: string): string => (isFormula(cell) ? `'${cell}` : cell);

/**
 * A text cell as the import reads it, trimmed: a leading `'` is kept as it is, and a formula behind
 * a leading tab or line end gets a `'` in their place (the API trims whitespace away; the CSV reader
 * makes a carriage return a line feed).
 */
export function keepProtection(raw: string): string {
  const trimmed = raw.trim();
  return /^\s*[\t\r\n]/.test(raw) && isFormula(trimmed) ? `'${trimmed}` : trimmed;
}
