import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useStack } from '../support/use-stack';

/**
 * Issue 43, as properties (fast-check, as list-params.test.ts drives the list routes): whatever an
 * iCalendar or CSV body holds, `POST /imports` answers a report or a 4xx in the error envelope, never a
 * 5xx, and a refused import writes no event. The bodies are made of the pieces that broke imports
 * before (fields over the API's limits and DynamoDB's item size, lowercase rules, mixed line ends,
 * formula cells, `$` patterns) among arbitrary text. Dry runs, so each case costs no writes; a few real
 * runs check that what a dry run accepts is written without a 5xx too. FC_RUNS_SCALE multiplies the
 * runs; a fixed seed (FC_SEED to change it).
 */
const { api, tokens } = await useStack({ tokens: { editor: 'editor' } });

const SEED = Number(process.env.FC_SEED ?? 20_261_202);
const runs = (n: number) => Math.max(1, Math.round(n * Number(process.env.FC_RUNS_SCALE ?? 1)));

const PIECES = [
  '$$',
  "$'",
  '$&',
  '=HYPERLINK("x")',
  '\t+1',
  '"',
  ',',
  ';',
  '\\n',
  '\r',
  '<b>',
  '&amp;',
  '😀',
];
const text = fc
  .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ unit: 'grapheme', maxLength: 8 })), {
    maxLength: 6,
  })
  .map((parts) => parts.join(''));
/** Sometimes over the API's limits (title 1,000, description 100 KB) or DynamoDB's 400 KB item. */
const sized = fc.oneof(
  { weight: 6, arbitrary: text },
  { weight: 1, arbitrary: fc.constantFrom(1_001, 100_001, 420_000).map((n) => 'x'.repeat(n)) },
);
const stamp = fc
  .tuple(
    fc.integer({ min: 1990, max: 2099 }),
    fc.integer({ min: 0, max: 13 }),
    fc.integer({ min: 0, max: 32 }),
    fc.integer({ min: 0, max: 25 }),
  )
  .map(
    ([y, m, d, h]) =>
      `${y}${String(m).padStart(2, '0')}${String(d).padStart(2, '0')}T${String(h).padStart(2, '0')}0000`,
  );
const rule = fc.constantFrom(
  '',
  'RRULE:FREQ=DAILY;COUNT=3',
  'rrule:freq=weekly;byday=mo,we;count=4',
  'RRULE:FREQ=YEARLY;BYMONTH=13',
  'RRULE:FREQ=SECONDLY',
  'RRULE:',
);
const vevent = fc
  .record({ uid: text, summary: sized, description: sized, location: text, start: stamp, end: stamp, rule })
  .map((e) =>
    [
      'BEGIN:VEVENT',
      `UID:${e.uid.replace(/[\r\n]/g, '')}`,
      `DTSTART:${e.start}Z`,
      `DTEND:${e.end}Z`,
      `SUMMARY:${e.summary.replace(/[\r\n]/g, ' ')}`,
      `DESCRIPTION:${e.description.replace(/[\r\n]/g, ' ')}`,
      `LOCATION:${e.location.replace(/[\r\n]/g, ' ')}`,
      ...(e.rule ? [e.rule] : []),
      'END:VEVENT',
    ].join('\r\n'),
  );
const calendar = fc
  .tuple(fc.array(vevent, { maxLength: 3 }), fc.constantFrom('\r\n', '\n'))
  .map(([events, eol]) =>
    ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//fuzz//EN', ...events, 'END:VCALENDAR'].join(eol),
  );
const HEADER = 'Event Name,Event Description,Event Start Date,Event Start Time,Event End Date,Event End Time';
const cell = sized.map((s) => `"${s.replace(/"/g, '""')}"`);
const csv = fc
  .tuple(
    fc.array(
      fc.tuple(
        cell,
        cell,
        fc.constantFrom('2031-02-01', '02/30/2031', 'x', ''),
        fc.constantFrom('10:00', '25:61', ''),
      ),
      {
        maxLength: 3,
      },
    ),
    fc.constantFrom('\n', '\r\n'),
    fc.boolean(),
  )
  .map(([rows, eol, mixed]) =>
    [HEADER, ...rows.map(([n, d, day, time]) => `${n},${d},${day},${time},${day},${time}`)]
      .map((line, i) => line + (mixed && i === 0 ? '\r\n' : eol))
      .join(''),
  );

const send = (body: string, type: string, query = '?dry_run=true') =>
  api.call('POST', `/imports${query}`, {
    raw: body,
    headers: { 'content-type': type },
    token: tokens.editor,
  });
const eventCount = async () =>
  (await api.get('/events?start_date=1990-01-01&end_date=2100-12-31&per_page=1', { token: tokens.editor }))
    .body.total as number;

function sound(res: { status: number; body: any }, shown: string) {
  expect(res.status, `never a 5xx: ${shown.slice(0, 300)}`).toBeLessThan(500);
  if (res.status >= 400) expect(res.body, shown.slice(0, 300)).toMatchObject({ code: expect.any(String) });
}

describe('POST /imports with any body', () => {
  it('answers a report or a 4xx for any calendar, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(calendar, async (body) => sound(await send(body, 'text/calendar'), body)),
      { numRuns: runs(40), seed: SEED },
    );
  }, 300_000);

  it('answers a report or a 4xx for any CSV file, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(csv, async (body) => sound(await send(body, 'text/csv'), body)),
      { numRuns: runs(40), seed: SEED },
    );
  }, 300_000);

  it('writes what it accepts without a 5xx, and nothing when it refuses', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          calendar.map((b) => [b, 'text/calendar']),
          csv.map((b) => [b, 'text/csv']),
        ),
        async ([body, type]) => {
          const before = await eventCount();
          const res = await send(body!, type!, '');
          sound(res, body!);
          if (res.status >= 400) expect(await eventCount()).toBe(before);
        },
      ),
      { numRuns: runs(10), seed: SEED },
    );
  }, 300_000);
});
