import { randomUUID } from 'node:crypto';
import ICAL from 'ical.js';
import { describe, expect, it, vi } from 'vitest';
import { finishJournal } from '../../shared/services/series';
import { anEvent, type Rec } from '../support/bodies';
import { expandCalendar } from '../support/ical-expand';
import { useStack } from '../support/use-stack';

/**
 * Series input a careless user or an attacker sends (issue 43): lowercase lines, concurrent splits of
 * one series, and a start inside a daylight-saving gap. Through HTTP, against the embedded DynamoDB.
 */
const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

// Series writes on a loaded machine: a cold start and a repeat can take a while.
vi.setConfig({ testTimeout: 180_000 });

/** Creates a series or an event (a 503 repeated with its key, as it says); its journal finished. */
async function create(body: Record<string, unknown>): Promise<Rec> {
  const headers = { 'idempotency-key': randomUUID() };
  const sent = anEvent({ status: 'publish', ...body });
  let res = await api.post('/events', sent, { token: editor, headers });
  for (let n = 0; n < 3 && res.status === 503; n++)
    res = await api.post('/events', sent, { token: editor, headers });
  expect([201, 202], JSON.stringify(res.body)).toContain(res.status);
  if (res.body.series_id) await finishJournal(res.body.series_id, Number.POSITIVE_INFINITY);
  return res.body as Rec;
}

async function occurrences(id: number): Promise<Rec[]> {
  const out: Rec[] = [];
  for (let page = 1; ; page++) {
    const res = await api.get(
      `/events?series=${id}&start_date=2020-01-01&end_date=2035-12-31&per_page=50&page=${page}`,
      { token: editor },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    out.push(...(res.body.events as Rec[]));
    if (page >= Number(res.headers.get('x-cal-totalpages'))) return out;
  }
}

describe('lowercase recurrence lines (issue 43)', () => {
  it('are stored and written to /events/ical upper case, and the feed parses', async () => {
    const first = await create({
      title: 'Lowercase rule',
      start_date: '2027-04-05 10:00:00',
      end_date: '2027-04-05 11:00:00',
      timezone: 'America/New_York',
      recurrence: [
        'rrule:freq=weekly;byday=mo,we;wkst=su;count=3',
        'exdate;tzid=America/New_York:20270407T100000',
        'rdate;value=date:20270420',
      ],
    });
    const normal = [
      'RRULE:FREQ=WEEKLY;BYDAY=MO,WE;WKST=SU;COUNT=3',
      'EXDATE;TZID=America/New_York:20270407T100000',
      'RDATE;VALUE=DATE:20270420',
    ];
    expect(first.recurrence).toEqual(normal);
    const read = await api.get(`/events/${first.id}`, { token: editor });
    expect(read.body.recurrence).toEqual(normal);
    const all = await occurrences(first.id as number);
    expect(all.map((e) => e.start_date)).toEqual([
      '2027-04-05 10:00:00',
      '2027-04-12 10:00:00',
      '2027-04-20 10:00:00',
    ]);
    expect(all.every((e) => JSON.stringify(e.recurrence) === JSON.stringify(normal))).toBe(true);

    const daily = await create({
      title: 'Lowercase daily',
      start_date: '2027-05-03 09:00:00',
      end_date: '2027-05-03 09:30:00',
      recurrence: ['rrule:freq=daily;count=3'],
    });
    expect(daily.recurrence).toEqual(['RRULE:FREQ=DAILY;COUNT=3']);

    // The same lines again in lowercase on scope=all change nothing of the rule's text.
    const again = await api.patch(
      `/events/${daily.id}?scope=all`,
      { recurrence: ['rrule:freq=daily;count=2'] },
      { token: editor },
    );
    expect([200, 202], JSON.stringify(again.body)).toContain(again.status);
    await finishJournal(daily.id as number, Number.POSITIVE_INFINITY);
    expect(again.body.recurrence).toEqual(['RRULE:FREQ=DAILY;COUNT=2']);

    const res = await fetch(`${api.base}/events/ical?start_date=2027-04-01&end_date=2027-05-31`);
    const text = await res.text();
    expect(res.status, text.slice(0, 300)).toBe(200);
    expect(text).not.toMatch(/rrule|freq=|rdate|exdate/);
    expect(() => new ICAL.Component(ICAL.parse(text))).not.toThrow();
    const seen = expandCalendar(text, Date.UTC(2027, 3, 1), Date.UTC(2027, 5, 1));
    expect(seen.filter((o) => o.title === 'Lowercase rule')).toHaveLength(3);
    expect(seen.filter((o) => o.title === 'Lowercase daily')).toHaveLength(2);
  });
});

describe('concurrent scope=following splits of one series (issue 43)', () => {
  it('one wins, the others answer 409 rest_series_busy, and the series stays whole', async () => {
    const first = await create({
      title: 'Forty days',
      start_date: '2027-06-01 10:00:00',
      end_date: '2027-06-01 11:00:00',
      timezone: 'Europe/Berlin',
      recurrence: ['RRULE:FREQ=DAILY;COUNT=40'],
    });
    const before = await occurrences(first.id as number);
    expect(before).toHaveLength(40);
    const cuts = [5, 10, 15, 20, 25, 30];

    const answers = await Promise.all(
      cuts.map((i) =>
        api.patch(`/events/${before[i]!.id}?scope=following`, { title: `From ${i}` }, { token: editor }),
      ),
    );

    const statuses = answers.map((r) => r.status).sort();
    expect(statuses, JSON.stringify(answers.map((r) => r.body))).toEqual([200, 409, 409, 409, 409, 409]);
    for (const r of answers.filter((a) => a.status === 409))
      expect(r.body).toMatchObject({ code: 'rest_series_busy', data: { status: 409, series_id: first.id } });
    const won = cuts[answers.findIndex((r) => r.status === 200)]!;
    await finishJournal(first.id as number, Number.POSITIVE_INFINITY);
    await finishJournal(before[won]!.id as number, Number.POSITIVE_INFINITY);

    // Every occurrence once, on its day, in the series and with the title the winner gave it.
    const head = await occurrences(first.id as number);
    const tail = await occurrences(before[won]!.id as number);
    expect(head.map((e) => e.id)).toEqual(before.slice(0, won).map((e) => e.id));
    expect(tail.map((e) => e.id)).toEqual(before.slice(won).map((e) => e.id));
    expect([...head, ...tail].map((e) => e.start_date)).toEqual(before.map((e) => e.start_date));
    expect(head.every((e) => e.title === 'Forty days' && e.series_id === first.id)).toBe(true);
    expect(tail.every((e) => e.title === `From ${won}` && e.series_id === before[won]!.id)).toBe(true);
    expect(head[0]!.recurrence[0]).toMatch(/^RRULE:FREQ=DAILY;UNTIL=\d{8}T\d{6}$/);
    expect(tail[0]!.recurrence).toEqual([`RRULE:FREQ=DAILY;COUNT=${40 - won}`]);

    // Once the first write is done, a split goes through.
    const later = await api.patch(
      `/events/${tail[3]!.id}?scope=following`,
      { title: 'Later' },
      { token: editor },
    );
    expect(later.status, JSON.stringify(later.body)).toBe(200);
  });
});

describe('a start inside a daylight-saving gap (issue 43)', () => {
  // 14 March 2027: New York skips from 02:00 to 03:00.
  const when = (e: Rec) => [e.start_date, e.end_date, e.utc_start_date, e.utc_end_date];

  it('moves a single event forward by the gap (RFC 5545 §3.3.5) and keeps its length', async () => {
    const single = await create({
      title: 'In the gap',
      start_date: '2027-03-14 02:30:00',
      end_date: '2027-03-14 03:30:00',
      timezone: 'America/New_York',
    });
    expect(when(single)).toEqual([
      '2027-03-14 03:30:00',
      '2027-03-14 04:30:00',
      '2027-03-14 07:30:00',
      '2027-03-14 08:30:00',
    ]);
    const short = await create({
      title: 'All in the gap',
      start_date: '2027-03-14 02:30',
      end_date: '2027-03-14 02:45',
      timezone: 'America/New_York',
    });
    expect(when(short).slice(0, 2)).toEqual(['2027-03-14 03:30:00', '2027-03-14 03:45:00']);
  });

  it('moves only the series occurrence on the gap day; the rule keeps the written time', async () => {
    const first = await create({
      title: 'Night shift',
      start_date: '2027-03-14 02:30:00',
      end_date: '2027-03-14 03:30:00',
      timezone: 'America/New_York',
      recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
    });
    expect(first.occurrence_start).toBe('2027-03-14 02:30:00');
    const all = await occurrences(first.id as number);
    expect(all.map(when)).toEqual([
      ['2027-03-14 03:30:00', '2027-03-14 04:30:00', '2027-03-14 07:30:00', '2027-03-14 08:30:00'],
      ['2027-03-15 02:30:00', '2027-03-15 03:30:00', '2027-03-15 06:30:00', '2027-03-15 07:30:00'],
      ['2027-03-16 02:30:00', '2027-03-16 03:30:00', '2027-03-16 06:30:00', '2027-03-16 07:30:00'],
    ]);
    expect(all.map((e) => e.occurrence_start)).toEqual([
      '2027-03-14 02:30:00',
      '2027-03-15 02:30:00',
      '2027-03-16 02:30:00',
    ]);

    // A weekly series from the Sunday before: only the gap day's occurrence moves.
    const weekly = await create({
      title: 'Sunday night',
      start_date: '2027-03-07 02:30:00',
      end_date: '2027-03-07 04:00:00',
      timezone: 'America/New_York',
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
    });
    expect((await occurrences(weekly.id as number)).map((e) => [e.start_date, e.end_date])).toEqual([
      ['2027-03-07 02:30:00', '2027-03-07 04:00:00'],
      ['2027-03-14 03:30:00', '2027-03-14 05:00:00'],
      ['2027-03-21 02:30:00', '2027-03-21 04:00:00'],
    ]);
  });
});
