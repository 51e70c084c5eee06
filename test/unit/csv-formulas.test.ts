import { describe, expect, it } from 'vitest';
import { escapeFormula, isFormula, keepProtection } from '../../shared/domain/csv-formulas';

/** Issue 43: CSV injection, as OWASP's CSV injection page lists the triggers. */
describe('a CSV cell', () => {
  it.each([
    '=HYPERLINK("https://evil.example","x")',
    "+cmd|' /C calc'!A0",
    '-2+3+cmd|calc!A0',
    '@SUM(1+1)*cmd|calc!A0',
    '\t=1+1',
    '\r=1+1',
    '\t\r@x',
    '＝1+1', // full-width forms, which spreadsheets read too
    '＋A1',
    '－A1',
    '＠A1',
    '-A1',
    '+A1',
    '=1',
  ])('%j is written behind a quote', (cell) => {
    expect(isFormula(cell)).toBe(true);
    expect(escapeFormula(cell)).toBe(`'${cell}`);
    expect(isFormula(escapeFormula(cell))).toBe(false);
  });

  it.each([
    '',
    'Jazz',
    "'=1+1",
    ' =1',
    '12',
    '-12.5',
    '-5',
    '+47 22 33 44 55',
    '+1 (555) 123-4567',
    'a=b',
    'x@y',
  ])('%j is written as it is', (cell) => {
    expect(escapeFormula(cell)).toBe(cell);
  });

  it('keeps its protection when imported', () => {
    expect(keepProtection("'=1+1")).toBe("'=1+1");
    expect(keepProtection('\t=1+1')).toBe("'=1+1");
    expect(keepProtection(' \t@SUM(A1) ')).toBe("'@SUM(A1)");
    expect(keepProtection('\r\n+A1')).toBe("'+A1");
    // Whitespace before anything else is trimmed as before.
    expect(keepProtection('\tJazz ')).toBe('Jazz');
    expect(keepProtection('\t-12.5')).toBe('-12.5');
    expect(keepProtection('  =1')).toBe('=1');
  });
});
