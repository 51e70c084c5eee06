import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { normalLine } from '../../shared/domain/recurrence-lines';
import { anEvent } from '../support/bodies';
import { useStack } from '../support/use-stack';

/**
 * Property-based tests of `recurrence` (issue 43), as list-params.test.ts and hostile-input.test.ts do
 * for their inputs: generated content lines (any case, supported and unsupported parts, values in and
 * out of range, odd dates, zones and bytes) on POST /events. For every request the answer is never a
 * 5xx; a write is a 201 or 202 whose lines read back normalised; a refusal is a 4xx error envelope.
 * Runs: 25 by default (a fixed seed, FC_SEED to change it; FC_RUNS_SCALE multiplies them), stopping
 * after FC_ROUTE_MAX_MS (default 60 s) on a busy machine. Every rule ends soon (COUNT or a near UNTIL)
 * unless it is refused, so that no run writes two years of occurrences.
 */
const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

const SEED = Number(process.env.FC_SEED ?? 20_261_202);
const RUNS = Math.max(1, Math.round(25 * Number(process.env.FC_RUNS_SCALE ?? 1)));
const MAX_MS = Number(process.env.FC_ROUTE_MAX_MS ?? 60_000);
vi.setConfig({ testTimeout: MAX_MS + 120_000 });

/** Any mix of upper and lower case. */
const anyCase = (s: string) =>
  fc
    .array(fc.boolean(), { minLength: s.length, maxLength: s.length })
    .map((up) => [...s].map((c, i) => (up[i] ? c.toUpperCase() : c.toLowerCase())).join(''));

const num = fc.oneof(
  fc.integer({ min: -400, max: 400 }).map(String),
  fc.constantFrom('0', '-0', '+3', '1.5', '', '99999', '1e3', ' 2', 'x'),
);
const day = fc.constantFrom(
  'MO',
  'TU',
  'WE',
  'TH',
  'FR',
  'SA',
  'SU',
  'XX',
  'mo',
  '1FR',
  '-1SU',
  '54MO',
  '+2we',
  '',
);
const date = fc.oneof(
  fc.constantFrom(
    '20270301',
    '20270310T090000',
    '20270310T090000Z',
    '20270314T023000',
    '20270229',
    '20271340',
    '00000101',
    '99991231T235959Z',
    '20270310t090000z',
    '2027-03-10',
    '',
  ),
  fc.string({ maxLength: 20 }),
);
const part = fc.oneof(
  fc.tuple(anyCase('INTERVAL'), num).map(([k, v]) => `${k}=${v}`),
  fc
    .tuple(anyCase('BYDAY'), fc.array(day, { minLength: 1, maxLength: 3 }))
    .map(([k, v]) => `${k}=${v.join(',')}`),
  fc.tuple(anyCase('BYMONTHDAY'), num).map(([k, v]) => `${k}=${v}`),
  fc.tuple(anyCase('BYMONTH'), num).map(([k, v]) => `${k}=${v}`),
  fc.tuple(anyCase('BYSETPOS'), num).map(([k, v]) => `${k}=${v}`),
  fc.tuple(anyCase('WKST'), day).map(([k, v]) => `${k}=${v}`),
  fc.constantFrom('BYHOUR=3', 'FREQ=DAILY', 'X-NAME=1', 'COUNT', '=', ';'),
);
/** A rule that ends soon: COUNT of a few, or UNTIL within weeks (or a malformed end, refused). */
const end = fc.oneof(
  fc
    .tuple(anyCase('COUNT'), fc.oneof(fc.integer({ min: 1, max: 6 }).map(String), num))
    .map(([k, v]) => `${k}=${v}`),
  fc
    .tuple(
      anyCase('UNTIL'),
      fc.constantFrom('20270320', '20270320T120000Z', '20260101', 'abc', '20270320t120000z'),
    )
    .map(([k, v]) => `${k}=${v}`),
);
const rrule = fc
  .tuple(
    anyCase('RRULE'),
    anyCase('FREQ'),
    fc.constantFrom('daily', 'WEEKLY', 'Monthly', 'yearly', 'HOURLY', 'secondly', ''),
    fc.array(part, { maxLength: 3 }),
    end,
  )
  .map(([name, f, freq, parts, e]) => `${name}:${[`${f}=${freq}`, ...parts, e].join(';')}`);
const dates = fc
  .tuple(
    fc.constantFrom('RDATE', 'rdate', 'EXDATE', 'ExDate'),
    fc.constantFrom('', ';VALUE=DATE', ';value=date', ';TZID=Europe/Berlin', ';tzid=Nowhere/Zone', ';X=1'),
    fc.array(date, { minLength: 1, maxLength: 3 }),
  )
  .map(([name, params, values]) => `${name}${params}:${values.join(',')}`);
/** Rules this service takes, in any case: the writes the property needs as much as the refusals. */
const validRule = fc
  .constantFrom(
    'RRULE:FREQ=DAILY;COUNT=3',
    'RRULE:FREQ=WEEKLY;BYDAY=MO,WE;WKST=SU;COUNT=4',
    'RRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=2',
    'RRULE:FREQ=YEARLY;INTERVAL=2;COUNT=2',
    'RRULE:FREQ=DAILY;INTERVAL=3;UNTIL=20270320T120000Z',
    'RRULE:FREQ=MONTHLY;BYMONTHDAY=1,15;BYSETPOS=1;COUNT=3',
  )
  .chain(anyCase);
const line = fc.oneof(
  { weight: 5, arbitrary: validRule },
  { weight: 6, arbitrary: rrule },
  { weight: 3, arbitrary: dates },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
);
const body = fc.record({
  recurrence: fc.oneof(fc.array(validRule, { minLength: 1, maxLength: 1 }), fc.array(line, { maxLength: 3 })),
  start: fc.constantFrom('2027-03-01 09:00:00', '2027-03-14 02:30:00', '2027-03-31 23:30:00'),
  timezone: fc.constantFrom('America/New_York', 'Europe/Berlin', 'Australia/Lord_Howe', 'UTC'),
  allDay: fc.boolean(),
});

describe('generated recurrence lines on POST /events (issue 43)', () => {
  it('never answer a 5xx; a write reads back normalised, a refusal is a 4xx envelope', async () => {
    const started = Date.now();
    const seen = { written: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        if (Date.now() - started > MAX_MS) return;
        const res = await api.post(
          '/events',
          anEvent({
            start_date: b.start,
            end_date: b.start,
            timezone: b.timezone,
            all_day: b.allDay,
            recurrence: b.recurrence,
          }),
          { token: editor },
        );
        const what = `${res.status} ${JSON.stringify(b)} ${JSON.stringify(res.body).slice(0, 300)}`;
        expect(res.status, what).toBeLessThan(500);
        if (res.status === 201 || res.status === 202) {
          seen.written++;
          expect(res.body.recurrence, what).toEqual(b.recurrence.map(normalLine));
          for (const l of res.body.recurrence as string[])
            expect(l.slice(0, l.search(/[;:]/)), what).toMatch(/^(RRULE|RDATE|EXDATE)$/);
        } else {
          seen.refused++;
          expect(res.status, what).toBeGreaterThanOrEqual(400);
          expect(res.body, what).toMatchObject({ code: expect.any(String), data: { status: res.status } });
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
    // The generator reaches both sides: series written from odd-case lines, and refusals.
    expect(seen.written, JSON.stringify(seen)).toBeGreaterThan(0);
    expect(seen.refused, JSON.stringify(seen)).toBeGreaterThan(0);
  });
});
