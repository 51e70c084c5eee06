import { describe, expect, it } from 'vitest';
import { readCsvRows } from '../../shared/domain/csv-events';

/**
 * Issue 43: a file whose first line ended in CRLF and the later ones in LF merged rows (row B vanished
 * into the date cell of row A): csv-parse takes the first line's end for the whole text.
 */
const HEADER = 'Event Name,Event Start Date';

describe('CSV line ends', () => {
  it.each([
    ['CRLF, then LF', `${HEADER}\r\nA,2031-01-01\nB,2031-01-02\nC,2031-01-03\n`],
    ['LF, then CRLF', `${HEADER}\nA,2031-01-01\r\nB,2031-01-02\r\nC,2031-01-03`],
    ['CR only', `${HEADER}\rA,2031-01-01\rB,2031-01-02\rC,2031-01-03\r`],
    ['every kind', `${HEADER}\r\nA,2031-01-01\rB,2031-01-02\nC,2031-01-03\r\n`],
  ])('%s: one row a line, each on its own line', (_what, text) => {
    const rows = readCsvRows(text);

    expect(rows.map((r) => r.row)).toEqual([
      { 'Event Name': 'A', 'Event Start Date': '2031-01-01' },
      { 'Event Name': 'B', 'Event Start Date': '2031-01-02' },
      { 'Event Name': 'C', 'Event Start Date': '2031-01-03' },
    ]);
    expect(rows.map((r) => r.line)).toEqual([2, 3, 4]);
  });

  it('keeps a line break inside a quoted cell, whatever its end', () => {
    const rows = readCsvRows(
      `${HEADER},Event Description\r\nA,2031-01-01,"one\r\ntwo"\nB,2031-01-02,"three\rfour"\n`,
      ['Event Name', 'Event Start Date', 'Event Description'],
    );

    expect(rows.map((r) => r.row['Event Description'])).toEqual(['one\ntwo', 'three\nfour']);
    expect(rows.map((r) => r.row['Event Name'])).toEqual(['A', 'B']);
  });
});
