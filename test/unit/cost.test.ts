import { describe, expect, it } from 'vitest';
import { costDisplay, costToWrite, costValues, parseCostInput } from '../../shared/domain/cost';

/** Cost parsing and display of reference §3.6 (and the reference's samples 021–027, 168). */
const parse = (input: unknown) => {
  const cost = parseCostInput(input);
  return { cost, values: costValues(cost), display: costDisplay(cost) };
};

describe('parseCostInput', () => {
  it('keeps the sent strings, trimmed, without a currency when none trails the amount', () => {
    const cost = parseCostInput(' 15 ');

    expect(cost).toEqual({ raw: ['15'], symbol: '', position: '', code: '' });
  });

  it('infers a trailing currency symbol as a postfix ("20$")', () => {
    const cost = parseCostInput('20$');

    expect(cost).toMatchObject({ symbol: '$', position: 'postfix' });
  });

  it('infers the postfix symbol from an array of amounts', () => {
    const cost = parseCostInput(['0$', '20$', '30$']);

    expect(cost).toMatchObject({ raw: ['0$', '20$', '30$'], symbol: '$', position: 'postfix' });
  });

  // Decisions §9: a currency before the amount is kept as a prefix (it used to be dropped, the display
  // showing "$"); the reference's answers (issue 39).
  it.each([
    ['£8.50', '£', 'prefix'],
    ['€15', '€', 'prefix'],
    ['¥3000', '¥', 'prefix'],
    ['CHF 20', 'CHF', 'prefix'],
    ['USD 10', 'USD', 'prefix'],
    ['R$ 30', 'R$', 'prefix'],
    ['$ 2', '$', 'prefix'],
    ['15 €', '€', 'postfix'],
    ['2 $', '$', 'postfix'],
    [['$5', '$10'], '$', 'prefix'],
    [['free', '20¥'], '¥', 'postfix'],
    ['free, 20$, 30$', '$', 'postfix'],
    // Decisions §9 rather than the reference (which keeps none for a range in one string and then
    // shows "$"): nothing is turned into "$".
    ['€6.50 - €8.50', '€', 'prefix'],
    ['$20 - $50', '$', 'prefix'],
  ])('keeps the currency of %j: %j, %j', (input, symbol, position) => {
    expect(parseCostInput(input)).toMatchObject({ symbol, position });
  });

  it.each([
    ['amounts with different currencies', ['20¥', '30$']],
    ['a currency on one side here and the other there', ['$20', '30$']],
    ['a word before the amount', 'Adults 10'],
    ['a word between amounts', '10 to 20'],
    ['no currency', '10 - 25'],
    ['no amount', 'foo bar'],
  ])('keeps no currency for %s', (_label, input) => {
    expect(parseCostInput(input)).toMatchObject({ symbol: '', position: '' });
  });

  it('reads a number as its string', () => {
    expect(parseCostInput(12).raw).toEqual(['12']);
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['an empty string', ''],
    ['blank strings in an array', ['', '  ']],
  ])('stores no cost for %s', (_label, input) => {
    expect(parseCostInput(input).raw).toEqual([]);
  });
});

describe('costValues', () => {
  it.each([
    ['a single amount', '15', ['15']],
    ['a range', '10 - 25', ['10', '25']],
    ['a range with symbols', '$20 - $50', ['20', '50']],
    ['a prefixed code', 'CHF 20', ['20']],
    ['thousands after a symbol', '$1,000', ['1000']],
    ['a decimal comma after a symbol', '$12,50', ['12.50']],
    ['a decimal comma', '25,55', ['25.55']],
    ['euro amounts with decimals', '€6.50 - €8.50', ['6.50', '8.50']],
    ['two decimal-comma amounts', '5,50 7,50', ['5.50', '7.50']],
    ['a thousands separator', '1,000', ['1000']],
    ['thousands and decimals (English)', '1,000.50', ['1000.50']],
    ['thousands and decimals (European)', '1.000,50', ['1000.50']],
    ['an array, kept as sent', ['10', '25.50'], ['10', '25.50']],
    ['amounts out of order', ['30', '5', '12'], ['5', '12', '30']],
    ['a non-numeric cost, kept as its string', 'Free', ['Free']],
    ['no cost', '', []],
  ])('finds %s', (_label, input, expected) => {
    expect(parse(input).values).toEqual(expected);
  });

  it('lists each amount once', () => {
    expect(parse(['10', '10$', '20']).values).toEqual(['10', '20']);
  });
});

describe('costDisplay', () => {
  it.each([
    ['one amount with the default prefix symbol (sample 021)', '15', '$15'],
    ['a range with an en dash (sample 023)', '10 - 25', '$10 – $25'],
    ['a symbol range (sample 027)', '$20 - $50', '$20 – $50'],
    ['a postfix symbol', '20$', '20$'],
    ['zero as Free', '0', 'Free'],
    ['zero at the bottom of a range', ['0$', '20$', '30$'], 'Free – 30$'],
    ['decimals as sent (sample 168)', ['10', '25.50'], '$10 – $25.50'],
    // Issue 39, the reference's answers: the currency as written, the amount as written.
    ['a pound prefix', '£8.50', '£8.50'],
    ['a euro prefix', '€15', '€15'],
    ['a yen prefix', '¥3000', '¥3000'],
    ['a code with a space', 'CHF 20', 'CHF20'],
    ['another code', 'USD 10', 'USD10'],
    ['a real prefix', 'R$ 30', 'R$30'],
    ['a euro postfix after a space', '15 €', '15€'],
    ['an array of prefixed amounts', ['$5', '$10'], '$5 – $10'],
    ['thousands as written', '$1,000', '$1,000'],
    ['a decimal comma as written', '$12,50', '$12,50'],
    ['a decimal comma without a currency', '25,55', '$25,55'],
    ['a euro range (decisions §9)', '€6.50 - €8.50', '€6.50 – €8.50'],
    ['equal amounts once', ['10', '10.00'], '$10'],
    ['a word as it is (sample 022)', 'Free', 'Free'],
    ['another word', 'Donation', 'Donation'],
    ['no cost as empty', '', ''],
  ])('shows %s', (_label, input, expected) => {
    expect(parse(input).display).toBe(expected);
  });

  it('reads the currency of a record stored before it was kept (no symbol stored)', () => {
    expect(costDisplay({ raw: ['£8.50'], symbol: '', position: '', code: '' })).toBe('£8.50');
  });

  it('uses another default symbol when asked', () => {
    expect(costDisplay(parseCostInput('15'), '€')).toBe('€15');
  });
});

describe('costToWrite', () => {
  it.each([
    ['a cost that names no currency loses the default "$"', '$5 – $10', '', '5 – 10'],
    ['a named "$" stays', '$5 – $10', '$', '$5 – $10'],
    ['another currency stays', '£8.50', '£', '£8.50'],
    ['a word stays', 'Donation', '', 'Donation'],
  ])('%s', (_label, display, symbol, expected) => {
    const written = costToWrite(display, symbol);

    expect(written).toBe(expected);
    // Written back, it reads as it was.
    expect(costDisplay(parseCostInput(written))).toBe(display);
  });

  it('keeps "Free" (a zero shown as a word, which a write does not read as zero)', () => {
    expect(costToWrite('Free – $30', '')).toBe('Free – 30');
  });
});
