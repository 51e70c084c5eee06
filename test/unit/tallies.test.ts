import { describe, expect, it } from 'vitest';
import { type DateBounds, inBounds } from '../../shared/domain/date-bounds';
import {
  dayKey,
  endDayOk,
  lessDays,
  pageStart,
  startDayOk,
  readTallyAttr,
  tallyAttr,
  tallyDaysOf,
  tallyMonth,
  tallyRange,
  type TallyMark,
  type TallyWho,
  tallyMark,
} from '../../shared/domain/tallies';

/**
 * Day tallies (shared/domain/tallies.ts): list totals over whole-day windows (reference §4.3, inclusive
 * mode) counted per start day and end day. Inclusive bounds are `D 00:00:00` for start_date and
 * `D 23:59:59` for every other bound, so a wall time of exactly 23:59:59 needs a key of its own.
 */

/** Events one month item counts inside the window: its per-day counts added up. */
const tallyCount = (item: Record<string, unknown>, who: TallyWho, b: DateBounds) =>
  tallyDaysOf(item, who, b).reduce((total, [, n]) => total + n, 0);

const D = '2027-01-15';
const dayStart = (day: string) => `${day} 00:00:00`;
const dayEnd = (day: string) => `${day} 23:59:59`;

/** Wall times around the day boundaries of D, the month's end and the year's end. */
const WALL_TIMES = [
  '2026-12-31 23:59:59',
  '2027-01-01 00:00:00',
  '2027-01-14 12:00:00',
  '2027-01-14 23:59:59',
  '2027-01-15 00:00:00',
  '2027-01-15 00:00:01',
  '2027-01-15 12:00:00',
  '2027-01-15 23:59:58',
  '2027-01-15 23:59:59',
  '2027-01-16 00:00:00',
  '2027-01-16 23:59:59',
  '2027-01-31 23:59:59',
  '2027-02-01 00:00:00',
];

/** The day-aligned bounds one parameter of an inclusive window sets, on day D. */
const START_BOUNDS: Array<[string, DateBounds]> = [
  ['start_date (start >= D 00:00:00)', { startMin: dayStart(D), dayAligned: true }],
  ['starts_before (start < D 23:59:59)', { startBefore: dayEnd(D), dayAligned: true }],
  ['starts_after (start > D 23:59:59)', { startAfter: dayEnd(D), dayAligned: true }],
];
const END_BOUNDS: Array<[string, DateBounds]> = [
  ['end_date (end <= D 23:59:59)', { endMax: dayEnd(D), dayAligned: true }],
  ['ends_before (end < D 23:59:59)', { endBefore: dayEnd(D), dayAligned: true }],
  ['ends_after (end > D 23:59:59)', { endAfter: dayEnd(D), dayAligned: true }],
];

describe('dayKey', () => {
  it('keys a wall time by its day', () => {
    const key = dayKey('2027-01-15 20:00:00');

    expect(key).toBe('2027-01-15');
  });

  it('keys midnight by its own day', () => {
    const key = dayKey('2027-01-15 00:00:00');

    expect(key).toBe('2027-01-15');
  });

  it('gives exactly 23:59:59 a key of its own, the day followed by ~', () => {
    const key = dayKey('2027-01-15 23:59:59');

    expect(key).toBe('2027-01-15~');
  });

  it('keys a second earlier by the plain day', () => {
    const key = dayKey('2027-01-15 23:59:58');

    expect(key).toBe('2027-01-15');
  });

  it('orders keys as the wall times they stand for, across months and years', () => {
    const keys = WALL_TIMES.map(dayKey);

    expect([...keys].sort()).toEqual(keys);
  });

  it('sorts the ~ key after its day and before the next day', () => {
    const keys = [
      dayKey('2027-01-31 12:00:00'),
      dayKey('2027-01-31 23:59:59'),
      dayKey('2027-02-01 00:00:00'),
    ];

    expect([...keys].sort()).toEqual(['2027-01-31', '2027-01-31~', '2027-02-01']);
  });
});

describe('tallyAttr', () => {
  it('names a mark, a start day of the month and the days to the end day as <mark><dd>|<days>', () => {
    const attrs = [tallyAttr('p', '2027-01-05', '2027-01-05'), tallyAttr('u', '2027-01-31', '2027-02-02')];

    expect(attrs).toEqual(['p05|0', 'u31|2']);
  });

  it('marks a start or an end at 23:59:59 with ~', () => {
    const attrs = [tallyAttr('p', '2027-01-15~', '2027-01-16'), tallyAttr('u', '2027-01-15', '2027-01-15~')];

    expect(attrs).toEqual(['p15~|1', 'u15|0~']);
  });

  it('reads back the start and end keys it was made from, across months, years and leap days', () => {
    const pairs = [
      ['2027-01-15', '2027-01-15'],
      ['2027-01-15~', '2027-01-15~'],
      ['2027-01-31~', '2027-02-01'],
      ['2027-12-31', '2028-01-01~'],
      ['2028-02-28', '2028-03-01'],
      ['2027-06-01', '2029-06-01'],
    ] as const;

    const read = pairs.map(([start, end]) => readTallyAttr(tallyMonth(start), tallyAttr('u', start, end)));

    expect(read).toEqual(pairs.map(([start, end]) => ({ mark: 'u', start, end })));
  });

  it('reads nothing from attributes of another shape (keys, day items of older tables)', () => {
    const read = ['pk', 'sk', 'p|2027-01-15', 'a05|0', 'x05|0', 'p5|0'].map((a) =>
      readTallyAttr('2027-01', a),
    );

    expect(read).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
  });
});

describe('tallyMonth', () => {
  it('keys the month tally item of a start day by its year and month', () => {
    expect([tallyMonth('2027-01-15'), tallyMonth('2027-01-31~')]).toEqual(['2027-01', '2027-01']);
  });
});

describe('startDayOk', () => {
  it.each(START_BOUNDS)('agrees with the event window for %s on every start key', (_name, bounds) => {
    const byWindow = WALL_TIMES.map((start) => inBounds(bounds, start, '2099-01-01 00:00:00'));

    const byTally = WALL_TIMES.map((start) => startDayOk(bounds, dayKey(start)));

    expect(byTally).toEqual(byWindow);
  });

  it('accepts both keys of D for start_date D', () => {
    const ok = [
      startDayOk({ startMin: dayStart(D), dayAligned: true }, D),
      startDayOk({ startMin: dayStart(D), dayAligned: true }, `${D}~`),
    ];

    expect(ok).toEqual([true, true]);
  });

  it('refuses the 23:59:59 key of D for starts_before D (start < D 23:59:59)', () => {
    const b: DateBounds = { startBefore: dayEnd(D), dayAligned: true };

    expect([startDayOk(b, D), startDayOk(b, `${D}~`)]).toEqual([true, false]);
  });

  it('refuses both keys of D for starts_after D (start > D 23:59:59)', () => {
    const b: DateBounds = { startAfter: dayEnd(D), dayAligned: true };

    expect([startDayOk(b, D), startDayOk(b, `${D}~`), startDayOk(b, '2027-01-16')]).toEqual([
      false,
      false,
      true,
    ]);
  });

  it('accepts every key without start bounds', () => {
    const ok = startDayOk({ endMax: dayEnd(D), dayAligned: true }, '1970-01-01');

    expect(ok).toBe(true);
  });

  it('needs every start bound at once', () => {
    const b: DateBounds = {
      startMin: dayStart('2027-01-10'),
      startBefore: dayEnd('2027-01-20'),
      dayAligned: true,
    };

    expect([startDayOk(b, '2027-01-09~'), startDayOk(b, '2027-01-15'), startDayOk(b, '2027-01-20~')]).toEqual(
      [false, true, false],
    );
  });
});

describe('endDayOk', () => {
  it.each(END_BOUNDS)('agrees with the event window for %s on every end key', (_name, bounds) => {
    const byWindow = WALL_TIMES.map((end) => inBounds(bounds, '1970-01-01 00:00:00', end));

    const byTally = WALL_TIMES.map((end) => endDayOk(bounds, dayKey(end)));

    expect(byTally).toEqual(byWindow);
  });

  it('accepts the 23:59:59 key of D for end_date D (end <= D 23:59:59)', () => {
    const b: DateBounds = { endMax: dayEnd(D), dayAligned: true };

    expect([endDayOk(b, `${D}~`), endDayOk(b, '2027-01-16')]).toEqual([true, false]);
  });

  it('refuses the 23:59:59 key of D for ends_before D (end < D 23:59:59)', () => {
    const b: DateBounds = { endBefore: dayEnd(D), dayAligned: true };

    expect([endDayOk(b, D), endDayOk(b, `${D}~`)]).toEqual([true, false]);
  });

  it('refuses both keys of D for ends_after D (end > D 23:59:59)', () => {
    const b: DateBounds = { endAfter: dayEnd(D), dayAligned: true };

    expect([endDayOk(b, D), endDayOk(b, `${D}~`), endDayOk(b, '2027-01-16')]).toEqual([false, false, true]);
  });

  it('accepts every key without end bounds', () => {
    const ok = endDayOk({ startMin: dayStart(D), dayAligned: true }, '2999-12-31~');

    expect(ok).toBe(true);
  });
});

describe('tallyRange', () => {
  it('reads every start day without bounds', () => {
    const range = tallyRange({ dayAligned: true });

    expect(range).toEqual(['0000', '9999~']);
  });

  it('reads from the start_date day to the 23:59:59 key of the end_date day', () => {
    const range = tallyRange({
      startMin: dayStart('2027-01-01'),
      endMax: dayEnd('2027-01-31'),
      dayAligned: true,
    });

    expect(range).toEqual(['2027-01-01', '2027-01-31~']);
  });

  it('starts at the latest lower bound (start_date or starts_after)', () => {
    const range = tallyRange({
      startMin: dayStart('2027-01-01'),
      startAfter: dayEnd('2027-01-05'),
      dayAligned: true,
    });

    expect(range[0]).toBe('2027-01-05');
  });

  it('ends at the earliest upper bound (starts_before, end_date or ends_before)', () => {
    const range = tallyRange({
      startBefore: dayEnd('2027-02-01'),
      endMax: dayEnd('2027-03-01'),
      endBefore: dayEnd('2027-01-20'),
      dayAligned: true,
    });

    expect(range[1]).toBe('2027-01-20~');
  });

  it('covers every start key the window accepts, for events that end after they start', () => {
    const b: DateBounds = {
      startMin: dayStart('2027-01-14'),
      startAfter: dayEnd('2027-01-14'),
      endMax: dayEnd('2027-01-31'),
      dayAligned: true,
    };
    const [low, high] = tallyRange(b);

    const outside = WALL_TIMES.filter((start) => inBounds(b, start, start))
      .map(dayKey)
      .filter((key) => key < low || key > high);

    expect(outside).toEqual([]);
  });

  it('answers an empty range (low above high) for a reversed window', () => {
    const [low, high] = tallyRange({
      startMin: dayStart('2027-02-01'),
      endMax: dayEnd('2027-01-01'),
      dayAligned: true,
    });

    expect(low > high).toBe(true);
  });
});

describe('tallyCount', () => {
  const JANUARY: DateBounds = {
    startMin: dayStart('2027-01-01'),
    endMax: dayEnd('2027-01-31'),
    dayAligned: true,
  };
  /** A month item holding one count per [mark, start key, end key]. */
  const item = (month: string, counts: Array<[TallyMark, string, string, number]>) => ({
    pk: 'TALLY#ALL',
    sk: month,
    ...Object.fromEntries(counts.map(([who, start, end, n]) => [tallyAttr(who, start, end), n])),
  });

  it('adds up the events of the audience whose end day is inside the window', () => {
    const n = tallyCount(
      item('2027-01', [
        ['p', '2027-01-15', '2027-01-15', 2],
        ['p', '2027-01-15', '2027-01-20', 3],
      ]),
      'p',
      JANUARY,
    );

    expect(n).toBe(5);
  });

  it('leaves out events that end after the window', () => {
    const n = tallyCount(
      item('2027-01', [
        ['p', '2027-01-15', '2027-01-15', 2],
        ['p', '2027-01-15', '2027-02-01', 4],
      ]),
      'p',
      JANUARY,
    );

    expect(n).toBe(2);
  });

  it('counts nothing from a start day outside the window', () => {
    const n = tallyCount(item('2026-12', [['p', '2026-12-31~', '2027-01-01', 2]]), 'p', JANUARY);

    expect(n).toBe(0);
  });

  it('counts only the days of its month inside the window', () => {
    const b: DateBounds = {
      startMin: dayStart('2027-01-15'),
      endMax: dayEnd('2027-01-20'),
      dayAligned: true,
    };

    const n = tallyCount(
      item('2027-01', [
        ['p', '2027-01-14', '2027-01-15', 1],
        ['p', '2027-01-15', '2027-01-15', 2],
        ['p', '2027-01-20', '2027-01-20', 4],
        ['p', '2027-01-20', '2027-01-21', 8],
      ]),
      'p',
      b,
    );

    expect(n).toBe(6);
  });

  it('counts published events for everyone, and the unpublished listable ones too for editors', () => {
    const counts: Array<[TallyMark, string, string, number]> = [
      ['p', '2027-01-15', '2027-01-15', 2],
      ['u', '2027-01-15', '2027-01-15', 7],
    ];

    const byAudience = [
      tallyCount(item('2027-01', counts), 'p', JANUARY),
      tallyCount(item('2027-01', counts), 'a', JANUARY),
    ];

    expect(byAudience).toEqual([2, 9]);
  });

  it('tallies published events under p and other listable statuses under u', () => {
    const marks = ['publish', 'draft', 'pending', 'private', 'future'].map(tallyMark);

    expect(marks).toEqual(['p', 'u', 'u', 'u', 'u']);
  });

  it('counts an event ending at 23:59:59 on the end_date day', () => {
    const n = tallyCount(item('2027-01', [['u', '2027-01-31', '2027-01-31~', 1]]), 'a', JANUARY);

    expect(n).toBe(1);
  });

  it('leaves out an event ending at 23:59:59 on the ends_before day', () => {
    const b: DateBounds = { endBefore: dayEnd('2027-01-31'), dayAligned: true };

    const n = tallyCount(
      item('2027-01', [
        ['u', '2027-01-31', '2027-01-31', 1],
        ['p', '2027-01-31', '2027-01-31~', 1],
      ]),
      'a',
      b,
    );

    expect(n).toBe(1);
  });

  it('ignores the key attributes, anything that is not a count and the day items of older tables', () => {
    const month = { ...item('2027-01', [['p', '2027-01-15', '2027-01-15', 2]]), version: 3, 'p15|1': 'x' };
    const oldDay = { pk: 'TALLY#ALL', sk: '2027-01-15', 'p|2027-01-15': 2, p15: 1 };

    expect([tallyCount(month, 'p', JANUARY), tallyCount(oldDay, 'p', JANUARY)]).toEqual([2, 0]);
  });

  it('gives the counts of each start day of its month in key order', () => {
    const days = tallyDaysOf(
      item('2027-01', [
        ['p', '2027-01-20', '2027-01-20', 1],
        ['p', '2027-01-15~', '2027-01-16', 2],
        ['p', '2027-01-15', '2027-01-15', 3],
        ['p', '2027-01-15', '2027-01-16', 4],
        ['p', '2027-01-16', '2027-01-16', 0],
      ]),
      'p',
      JANUARY,
    );

    expect(days).toEqual([
      ['2027-01-15', 7],
      ['2027-01-15~', 2],
      ['2027-01-20', 1],
    ]);
  });

  it('counts a whole window from its items as the event window selects the events', () => {
    const events = [
      ['2027-01-01 00:00:00', '2027-01-01 01:00:00'],
      ['2027-01-14 23:59:59', '2027-01-15 10:00:00'],
      ['2027-01-15 23:59:59', '2027-01-15 23:59:59'],
      ['2027-01-31 22:00:00', '2027-01-31 23:59:59'],
      ['2027-01-31 22:00:00', '2027-02-01 00:00:00'],
      ['2026-12-31 23:59:59', '2027-01-01 01:00:00'],
      ['2027-02-01 00:00:00', '2027-02-01 01:00:00'],
    ] as const;
    const items = new Map<string, Record<string, unknown>>();
    for (const [start, end] of events) {
      const month = tallyMonth(dayKey(start));
      const entry = items.get(month) ?? { pk: 'TALLY#ALL', sk: month };
      const attr = tallyAttr('p', dayKey(start), dayKey(end));
      entry[attr] = ((entry[attr] as number | undefined) ?? 0) + 1;
      items.set(month, entry);
    }
    const windows: DateBounds[] = [
      JANUARY,
      { startAfter: dayEnd('2027-01-14'), endBefore: dayEnd('2027-01-31'), dayAligned: true },
      { startBefore: dayEnd('2027-01-15'), endAfter: dayEnd('2027-01-01'), dayAligned: true },
      { startMin: dayStart('2026-12-31'), endMax: dayEnd('2027-02-01'), dayAligned: true },
    ];

    const byTally = windows.map((b) => [...items.values()].reduce((n, i) => n + tallyCount(i, 'p', b), 0));
    const byWindow = windows.map((b) => events.filter(([s, e]) => inBounds(b, s, e)).length);

    expect(byTally).toEqual(byWindow);
  });
});

describe('pageStart', () => {
  const days: Array<[string, number]> = [
    ['2027-01-14', 3],
    ['2027-01-14~', 2],
    ['2027-01-16', 4],
  ];

  it.each([
    [0, { from: '2027-01-14', skip: 0 }],
    [2, { from: '2027-01-14', skip: 2 }],
    [3, { from: '2027-01-14 23:59:59', skip: 0 }],
    [4, { from: '2027-01-14 23:59:59', skip: 1 }],
    [5, { from: '2027-01-16', skip: 0 }],
    [8, { from: '2027-01-16', skip: 3 }],
  ])('finds the day of row %i', (offset, expected) => {
    expect(pageStart(days, offset)).toEqual(expected);
  });

  it('has no start past the last row', () => {
    expect(pageStart(days, 9)).toBeUndefined();
    expect(pageStart([], 0)).toBeUndefined();
  });
});

describe('lessDays (ticketed=false: every event less the ticketed ones)', () => {
  it('takes the second list from the first day by day, dropping the days left empty', () => {
    const all = {
      total: 10,
      days: [
        ['2027-01-14', 3],
        ['2027-01-14~', 2],
        ['2027-01-16', 5],
      ] as Array<[string, number]>,
    };
    const ticketed = {
      total: 4,
      days: [
        ['2027-01-14~', 2],
        ['2027-01-16', 2],
      ] as Array<[string, number]>,
    };

    const unticketed = lessDays(all, ticketed);

    expect(unticketed).toEqual({
      total: 6,
      days: [
        ['2027-01-14', 3],
        ['2027-01-16', 3],
      ],
    });
    // Its days place its pages as any list's do.
    expect(pageStart(unticketed.days, 3)).toEqual({ from: '2027-01-16', skip: 0 });
    expect(lessDays(all, { total: 0, days: [] })).toEqual(all);
    expect(lessDays(all, all)).toEqual({ total: 0, days: [] });
  });
});
