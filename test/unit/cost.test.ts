import { describe, expect, it } from 'vitest';
import { costDisplay, costValues, parseCostInput } from '../../shared/domain/cost';

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

  it('does not treat a leading symbol as a postfix ("$20 - $50" keeps the default symbol)', () => {
    const cost = parseCostInput('$20 - $50');

    expect(cost).toMatchObject({ symbol: '', position: '' });
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
    ['equal amounts once', ['10', '10.00'], '$10'],
    ['a word as it is (sample 022)', 'Free', 'Free'],
    ['another word', 'Donation', 'Donation'],
    ['no cost as empty', '', ''],
  ])('shows %s', (_label, input, expected) => {
    expect(parse(input).display).toBe(expected);
  });

  it('uses another default symbol when asked', () => {
    expect(costDisplay(parseCostInput('15'), '€')).toBe('€15');
  });
});
