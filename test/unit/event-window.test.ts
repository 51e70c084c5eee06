import { afterEach, describe, expect, it, vi } from 'vitest';
import { asApiError } from '../../shared/http/errors';
import { type DateBounds, inBounds, startRange } from '../../shared/domain/date-bounds';
import { type WindowQuery, windowWith } from '../../shared/domain/event-window';
import { BEYOND, intlTimes } from '../../shared/domain/intl-times';
import { listWindow } from '../../shared/domain/list-window';
import { luxonTimes } from '../../shared/domain/luxon-times';
import { keys } from '../../shared/db/keys';

/** The date window of GET /events (reference §4.3, decisions §5), site time zone UTC. */
const NOW = new Date('2026-11-22T11:49:00Z'); // the reference capture clock

/** The window listWindow gives at NOW: with Intl's maths, with luxon's for what Intl leaves to it. */
function bounds(q: WindowQuery) {
  try {
    return windowWith(
      intlTimes(() => NOW.getTime()),
      q,
      NOW,
    );
  } catch (e) {
    if (e !== BEYOND) throw e;
    return windowWith(luxonTimes, q, NOW);
  }
}
const problemParam = (q: WindowQuery) => {
  try {
    bounds(q);
  } catch (e) {
    const api = asApiError(e);
    if (api) return Object.keys(api.toBody().data.params as object);
    throw e;
  }
  throw new Error('expected a 400');
};

describe('dateBounds', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('defaults to the beginning of yesterday up to the end of the day 24 months ahead (sample 040)', () => {
    expect(bounds({})).toEqual({
      startMin: '2026-11-21 00:00:00',
      endMax: '2028-11-22 23:59:59',
      startBefore: undefined,
      startAfter: undefined,
      endBefore: undefined,
      endAfter: undefined,
      dayAligned: true,
    });
  });

  it('moves start_date to the beginning and end_date to the end of their days (sample 053)', () => {
    const b = bounds({ start_date: '2027-01-01', end_date: '2027-01-31' });

    expect(b).toMatchObject({
      startMin: '2027-01-01 00:00:00',
      endMax: '2027-01-31 23:59:59',
      dayAligned: true,
    });
  });

  it('drops the time of an inclusive start_date (sample 056)', () => {
    expect(bounds({ start_date: '2027-01-15 21:00:00' }).startMin).toBe('2027-01-15 00:00:00');
  });

  it('keeps the given times with strict_dates (sample 057)', () => {
    const b = bounds({ start_date: '2027-01-15 21:00:00', end_date: '2027-01-31', strict_dates: true });

    expect(b).toMatchObject({
      startMin: '2027-01-15 21:00:00',
      endMax: '2027-01-31 00:00:00',
      dayAligned: false,
    });
  });

  it('keeps the default end when only start_date is given (sample 052)', () => {
    expect(bounds({ start_date: '2025-01-01' })).toMatchObject({
      startMin: '2025-01-01 00:00:00',
      endMax: '2028-11-22 23:59:59',
    });
  });

  it('moves every relative bound to the end of its day, starts_after included (samples 063–067)', () => {
    const b = bounds({
      starts_after: '2027-03-01',
      starts_before: '2027-04-01 08:00',
      ends_after: '2027-03-02',
      ends_before: '2027-04-02',
    });

    expect(b).toMatchObject({
      startAfter: '2027-03-01 23:59:59',
      startBefore: '2027-04-01 23:59:59',
      endAfter: '2027-03-02 23:59:59',
      endBefore: '2027-04-02 23:59:59',
    });
  });

  it.each(['starts_before', 'starts_after', 'ends_before', 'ends_after'] as const)(
    'drops the default window when %s is given',
    (param) => {
      const b = bounds({ [param]: '2027-03-01' });

      expect([b.startMin, b.endMax]).toEqual([undefined, undefined]);
    },
  );

  it('keeps an explicit start_date next to a relative bound, without a default end (sample 065)', () => {
    const b = bounds({ starts_before: '2026-12-31', start_date: '2020-01-01' });

    expect(b).toMatchObject({
      startMin: '2020-01-01 00:00:00',
      endMax: undefined,
      startBefore: '2026-12-31 23:59:59',
    });
  });

  it('uses strict relative bounds as given (sample 069)', () => {
    expect(bounds({ starts_after: '2027-01-15 19:00:00', strict_dates: true }).startAfter).toBe(
      '2027-01-15 19:00:00',
    );
  });

  it('reads relative phrases against the clock (sample 061)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);

    const b = await listWindow({ start_date: '+1 year', end_date: '+2 years' });

    expect(b).toMatchObject({ startMin: '2027-11-22 00:00:00', endMax: '2028-11-22 23:59:59' });
  });

  it('converts an input with an offset to the site zone before taking its day (sample 062)', () => {
    expect(bounds({ start_date: '2027-01-15T19:00:00-05:00' }).startMin).toBe('2027-01-16 00:00:00');
  });

  it('reads a Unix timestamp (UTC)', () => {
    expect(bounds({ start_date: 1800000000, strict_dates: true }).startMin).toBe('2027-01-15 08:00:00');
  });

  it.each([
    ['start_date', { start_date: 'not-a-date' }],
    ['end_date', { end_date: 'garbage' }],
    ['starts_before', { starts_before: 'before my birthday' }],
    ['starts_after', { starts_after: 'after my birthday' }],
    ['ends_before', { ends_before: '2027-02-30' }],
    ['ends_after', { ends_after: 'soon' }],
  ])('refuses an unparseable %s, naming it', (param, q) => {
    expect(problemParam(q)).toEqual([param]);
  });

  it('answers a reversed window with bounds that match nothing rather than an error (sample 060)', () => {
    const b = bounds({ start_date: '2027-02-01', end_date: '2027-01-01' });

    expect(inBounds(b, '2027-01-15 10:00:00', '2027-01-15 11:00:00')).toBe(false);
  });
});

describe('inBounds', () => {
  const b = bounds({ start_date: '2027-01-01', end_date: '2027-01-31' });

  it('needs the whole event inside start_date … end_date: start >= and end <=', () => {
    expect(inBounds(b, '2027-01-01 00:00:00', '2027-01-31 23:59:59')).toBe(true);
    expect(inBounds(b, '2026-12-31 23:59:59', '2027-01-01 10:00:00')).toBe(false);
    expect(inBounds(b, '2027-01-31 10:00:00', '2027-02-01 00:00:00')).toBe(false);
  });

  it('leaves out an event that started before the window and is still running (reference §13.4)', () => {
    expect(inBounds(bounds({}), '2026-11-01 10:00:00', '2027-02-28 18:00:00')).toBe(false);
  });

  it('keeps an event that started yesterday in the default window', () => {
    expect(inBounds(bounds({}), '2026-11-21 08:00:00', '2026-11-21 09:00:00')).toBe(true);
    expect(inBounds(bounds({}), '2026-11-20 23:00:00', '2026-11-20 23:30:00')).toBe(false);
  });

  it('applies the relative bounds strictly: starts_after >, starts_before <, ends_after >, ends_before <', () => {
    const strict = bounds({
      starts_after: '2027-01-15 10:00:00',
      ends_before: '2027-01-15 12:00:00',
      strict_dates: true,
    });

    expect(inBounds(strict, '2027-01-15 10:00:00', '2027-01-15 11:00:00')).toBe(false);
    expect(inBounds(strict, '2027-01-15 10:00:01', '2027-01-15 12:00:00')).toBe(false);
    expect(inBounds(strict, '2027-01-15 10:00:01', '2027-01-15 11:59:59')).toBe(true);
  });

  it('selects the reference example of §4.3 (ends_after=2017-12-31, starts_before=2018-01-02)', () => {
    const events = {
      e0: ['2017-12-31 17:00:00', '2017-12-31 19:00:00'],
      e1: ['2018-01-01 16:00:00', '2018-01-01 17:00:00'],
      e2: ['2018-01-01 19:00:00', '2018-01-01 20:00:00'],
      e3: ['2018-01-02 10:00:00', '2018-01-02 11:00:00'],
      e4: ['2017-12-30 10:00:00', '2018-01-02 10:00:00'],
      e5: ['2017-12-29 10:00:00', '2018-01-03 10:00:00'],
    } as const;
    const pick = (q: WindowQuery) =>
      Object.entries(events)
        .filter(([, [s, e]]) => inBounds(bounds(q), s, e))
        .map(([name]) => name);

    expect(pick({ ends_after: '2017-12-31', starts_before: '2018-01-02' })).toEqual([
      'e1',
      'e2',
      'e3',
      'e4',
      'e5',
    ]);
    expect(
      pick({
        ends_after: '2017-12-31',
        starts_before: '2018-01-02',
        start_date: '2017-12-30',
        end_date: '2018-01-02',
      }),
    ).toEqual(['e1', 'e2', 'e3', 'e4']);
  });

  it('selects the inclusive and the strict reading of the first §4.3 example', () => {
    const q = { start_date: '2018-01-01 15:00:00', end_date: '2018-01-01 18:00:00' };
    const early = ['2018-01-01 16:00:00', '2018-01-01 16:30:00'] as const;
    const late = ['2018-01-01 20:00:00', '2018-01-01 20:30:00'] as const;

    expect([inBounds(bounds(q), ...early), inBounds(bounds(q), ...late)]).toEqual([true, true]);
    expect([
      inBounds(bounds({ ...q, strict_dates: true }), ...early),
      inBounds(bounds({ ...q, strict_dates: true }), ...late),
    ]).toEqual([true, false]);
  });

  it('applies starts_before and ends_after strictly too: an event on the bound is out', () => {
    const strict = bounds({
      starts_before: '2027-01-15 10:00:00',
      ends_after: '2027-01-15 12:00:00',
      strict_dates: true,
    });

    expect(inBounds(strict, '2027-01-15 10:00:00', '2027-01-15 13:00:00')).toBe(false);
    expect(inBounds(strict, '2027-01-15 09:00:00', '2027-01-15 12:00:00')).toBe(false);
    expect(inBounds(strict, '2027-01-15 09:59:59', '2027-01-15 12:00:01')).toBe(true);
  });

  it('keeps every event when no bound is set', () => {
    const none: DateBounds = { dayAligned: false };

    expect(inBounds(none, '1970-01-01 00:00:00', '2999-12-31 23:59:59')).toBe(true);
  });
});

describe('startRange', () => {
  it('reads from the latest lower start bound to the earliest upper bound', () => {
    const r = startRange(
      bounds({
        start_date: '2027-01-01',
        starts_after: '2027-01-05',
        end_date: '2027-03-01',
        starts_before: '2027-02-01',
      }),
    );

    expect(r).toEqual({ low: '2027-01-05 23:59:59', high: '2027-02-01 23:59:59~' });
  });

  it('reads everything without bounds', () => {
    expect(startRange(bounds({ starts_after: '1970-01-02', strict_dates: false }))).toEqual({
      low: '1970-01-02 23:59:59',
      high: '9999~',
    });
  });

  it('never reads past an end bound: an event cannot start after it ends', () => {
    expect(startRange(bounds({ ends_before: '2027-01-10' })).high).toBe('2027-01-10 23:59:59~');
  });

  it('reads the whole index when no bound is set', () => {
    expect(startRange({ dayAligned: false })).toEqual({ low: '0000', high: '9999~' });
  });

  it('holds the index keys of events on the very edges of an inclusive window', () => {
    const b = bounds({ start_date: '2027-01-01', end_date: '2027-01-31' });
    const { low, high } = startRange(b);
    const first = keys.postDateIndex('event', '2027-01-01 00:00:00', 999_999).gsi2sk;
    const last = keys.postDateIndex('event', '2027-01-31 23:59:59', 999_999).gsi2sk;

    expect(inBounds(b, '2027-01-31 23:59:59', '2027-01-31 23:59:59')).toBe(true);
    expect([first >= low && first <= high, last >= low && last <= high]).toEqual([true, true]);
  });
});
