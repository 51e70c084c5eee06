import { describe, expect, it } from 'vitest';
import { intlTimes } from '../../shared/domain/intl-times';
import { expandSeries } from '../../shared/domain/recurrence';
import { renderCalendar, seriesUid } from '../../shared/services/feeds/ical';
import type { EventView as Event } from '../../shared/services/events';
import { type Expanded, expandCalendar } from '../support/ical-expand';

/**
 * The feed's writer of series (shared/services/feeds/ical/ical-series.ts) on hand-made occurrences, as the
 * list service would give them: whatever is listed, ical.js's expansion of the written calendar gives
 * the same occurrences (start instants or days, and titles), and a series is one VEVENT.
 */
/** An event as listed, with its place in a series. */
type EventView = Event & {
  series_id?: number | null;
  recurrence?: string[] | null;
  occurrence_start?: string | null;
  is_exception?: boolean;
};

const maths = intlTimes();
const NOW = new Date('2027-01-10T12:00:00Z');
const ALL = [Date.UTC(2000, 0, 1), Date.UTC(2100, 0, 1)] as const;
const floating = (wall: string) => Date.parse(`${wall.replace(' ', 'T')}Z`);
const wallAt = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
const utcOf = (zone: string, wall: string) =>
  maths.utcWall(maths.read('start_date', wall, maths.zone(zone)!));

let nextId = 100;

/** The occurrences of a series as the API lists them, IDs in order, the first naming the series. */
function occurrences(
  title: string,
  zone: string,
  lines: string[],
  start: string,
  end: string,
  allDay = false,
): EventView[] {
  const expanded = expandSeries(
    maths,
    maths.zone(zone)!,
    lines,
    { start, end, allDay },
    '2029-12-31 23:59:59',
  );
  const seriesId = nextId;
  return expanded.occurrences.map((o) =>
    at(
      {
        id: nextId++,
        title,
        timezone: zone,
        all_day: allDay,
        series_id: seriesId,
        recurrence: lines,
        occurrence_start: o.start,
        is_exception: false,
      },
      o.start,
      o.end,
    ),
  );
}

/** An event view at these wall times (UTC ones worked out in its zone). */
function at(e: Partial<EventView>, start: string, end: string): EventView {
  return {
    status: 'publish',
    description: '',
    url: `http://calendar.test/event/${e.id}/`,
    modified_utc: '2026-12-01 10:00:00',
    categories: [],
    venue: [],
    organizer: [],
    ...e,
    start_date: start,
    end_date: end,
    utc_start_date: e.all_day ? start : utcOf(e.timezone!, start),
    utc_end_date: e.all_day ? end : utcOf(e.timezone!, end),
  } as unknown as EventView;
}

/** Moved (and retitled) on its own: an exception at new wall times. */
function moved(e: EventView, start: string, title = e.title): EventView {
  const length = floating(e.end_date) - floating(e.start_date);
  return at({ ...e, title, is_exception: true }, start, wallAt(floating(start) + length));
}

/** What a client should see of the listed events: timed ones by instant, all-day ones by day. */
const seen = (events: EventView[]) =>
  events
    .map((e) =>
      e.all_day
        ? { day: e.start_date.slice(0, 10), title: e.title }
        : { start: floating(e.utc_start_date!), title: e.title },
    )
    .sort((a, b) => (a.day ?? '').localeCompare(b.day ?? '') || (a.start ?? 0) - (b.start ?? 0));

const asSeen = (x: Expanded[]) =>
  x
    .map((o) => (o.day ? { day: o.day, title: o.title } : { start: o.start, title: o.title }))
    .sort((a, b) => (a.day ?? '').localeCompare(b.day ?? '') || (a.start ?? 0) - (b.start ?? 0));

const render = (events: EventView[]) => renderCalendar(events, NOW, expandSeries);
const vevents = (text: string) =>
  text
    .split('BEGIN:VEVENT')
    .slice(1)
    .map((v) => v.split('END:VEVENT')[0]!);
/** The content lines of a VEVENT, unfolded. */
const linesOf = (vevent: string) => vevent.replace(/\r\n /g, '').split('\r\n').filter(Boolean);

describe('a series in the feed', () => {
  it('is one VEVENT with an RRULE; a cancelled occurrence is an EXDATE, a moved one a RECURRENCE-ID, across a DST change', () => {
    // Tuesdays at 19:00 in New York from February: EST, then EDT from 14 March 2027.
    const all = occurrences(
      'Choir',
      'America/New_York',
      ['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=8'],
      '2027-02-23 19:00:00',
      '2027-02-23 21:00:00',
    );
    expect(all).toHaveLength(8);
    const cancelled = all[3]!; // 16 March
    const listed = all
      .filter((e) => e !== cancelled)
      .map((e) => (e === all[4] ? moved(e, '2027-03-25 20:00:00', 'Choir (Thursday)') : e));

    const text = render(listed);

    expect(asSeen(expandCalendar(text, ...ALL))).toEqual(seen(listed));
    const [series, exception, ...rest] = vevents(text).map(linesOf);
    expect(rest).toEqual([]);
    expect(series).toContain('DTSTART;TZID=America/New_York:20270223T190000');
    // UNTIL in UTC with a TZID'd DTSTART (RFC 5545 §3.3.10); COUNT gone: the rule ends at the last listed place.
    expect(series).toContain('RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20270413T230000Z');
    expect(series).toContain('EXDATE;TZID=America/New_York:20270316T190000');
    expect(series).toContain(`UID:${seriesUid(all[0]!.id)}`);
    expect(exception).toContain(`UID:${seriesUid(all[0]!.id)}`);
    expect(exception).toContain('RECURRENCE-ID;TZID=America/New_York:20270323T190000');
    expect(exception).toContain('DTSTART;TZID=America/New_York:20270325T200000');
  });

  it('starts at the first listed place of a window and ends at its last: a monthly last-Friday series', () => {
    const all = occurrences(
      'Meetup',
      'Europe/Berlin',
      ['RRULE:FREQ=MONTHLY;BYDAY=-1FR'],
      '2027-01-29 18:30:00',
      '2027-01-29 21:00:00',
    );
    expect(all.slice(0, 4).map((e) => e.start_date.slice(0, 10))).toEqual([
      '2027-01-29',
      '2027-02-26',
      '2027-03-26',
      '2027-04-30',
    ]);
    // A window from March to August: the list gives those months only.
    const listed = all.filter((e) => e.start_date >= '2027-03' && e.start_date < '2027-09');

    const text = render(listed);

    expect(asSeen(expandCalendar(text, ...ALL))).toEqual(seen(listed));
    const [series] = vevents(text).map(linesOf);
    expect(series).toContain('DTSTART;TZID=Europe/Berlin:20270326T183000');
    expect(series).toContain('RRULE:FREQ=MONTHLY;BYDAY=-1FR;UNTIL=20270827T163000Z');
    expect(series!.some((l) => l.startsWith('EXDATE'))).toBe(false);
  });

  it('writes an all-day series by date, with a cancelled day and a moved one', () => {
    const all = occurrences(
      'Festival',
      'Europe/London',
      ['RRULE:FREQ=DAILY;COUNT=7'],
      '2027-07-05 00:00:00',
      '2027-07-05 23:59:59',
      true,
    );
    const listed = all
      .filter((e) => e.start_date.slice(0, 10) !== '2027-07-07')
      .map((e) =>
        e.start_date.startsWith('2027-07-09') ? moved(e, '2027-07-13 00:00:00', 'Festival finale') : e,
      );

    const text = render(listed);

    expect(asSeen(expandCalendar(text, ...ALL))).toEqual(seen(listed));
    const lines = vevents(text).map(linesOf);
    expect(lines[0]).toContain('DTSTART;VALUE=DATE:20270705');
    expect(lines[0]).toContain('RRULE:FREQ=DAILY;UNTIL=20270711');
    expect(lines[0]).toContain('EXDATE;VALUE=DATE:20270707');
    expect(lines[1]).toContain('RECURRENCE-ID;VALUE=DATE:20270709');
  });

  it('keeps an RDATE at another time as an RDATE, and anchors the rule at a place the rule made', () => {
    const lines = ['RRULE:FREQ=WEEKLY;BYDAY=WE;COUNT=3', 'RDATE:20270308T120000'];
    const all = occurrences('Talks', 'Europe/Berlin', lines, '2027-03-03 19:00:00', '2027-03-03 20:00:00');
    expect(all.map((e) => e.start_date)).toContain('2027-03-08 12:00:00');
    // A window from 8 March: its first listed place is the RDATE, a Monday at noon. A rule anchored
    // there would repeat on Mondays at noon.
    const listed = all.filter((e) => e.start_date >= '2027-03-08');

    const text = render(listed);

    expect(asSeen(expandCalendar(text, ...ALL))).toEqual(seen(listed));
    const [series] = vevents(text).map(linesOf);
    expect(series).toContain('DTSTART;TZID=Europe/Berlin:20270310T190000');
    expect(series).toContain('RDATE;TZID=Europe/Berlin:20270308T120000');
  });

  it('lists the places of a series in a fixed-offset zone in UTC, where a rule would drift across days', () => {
    const all = occurrences(
      'Late show',
      'UTC+5',
      ['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=3'],
      '2027-03-02 02:00:00',
      '2027-03-02 03:00:00',
    );
    const listed = [all[0]!, moved(all[1]!, '2027-03-10 02:00:00'), all[2]!];

    const text = render(listed);

    expect(asSeen(expandCalendar(text, ...ALL))).toEqual(seen(listed));
    const [series, exception] = vevents(text).map(linesOf);
    expect(series!.some((l) => l.startsWith('RRULE'))).toBe(false);
    expect(series).toContain('RDATE:20270301T210000Z,20270308T210000Z,20270315T210000Z');
    expect(exception).toContain('RECURRENCE-ID:20270308T210000Z');
  });

  it('writes a series whose every listed occurrence is an exception, and single events beside it as before', () => {
    const all = occurrences(
      'Course',
      'UTC',
      ['RRULE:FREQ=DAILY;INTERVAL=2'],
      '2027-05-01 09:00:00',
      '2027-05-01 10:00:00',
    );
    const listed = [
      moved(all[2]!, '2027-05-05 11:00:00', 'Course (late)'),
      moved(all[3]!, '2027-05-07 12:00:00'),
    ];
    const single = at(
      { id: 9, title: 'Single', timezone: 'Europe/Paris', series_id: null },
      '2027-05-06 10:00:00',
      '2027-05-06 11:00:00',
    );

    const text = render([listed[0]!, single, listed[1]!]);

    expect(asSeen(expandCalendar(text, ...ALL))).toEqual(seen([...listed, single]));
    const uids = vevents(text).map((v) => linesOf(v).find((l) => l.startsWith('UID:')));
    expect(uids).toEqual([
      `UID:${seriesUid(all[0]!.id)}`,
      `UID:${seriesUid(all[0]!.id)}`,
      `UID:${seriesUid(all[0]!.id)}`,
      'UID:event-9@calendar.test',
    ]);
  });

  it('lists the places as RDATEs when the rule would make more than 1,000 between the first and the last', () => {
    const [first] = occurrences(
      'Daily',
      'Europe/Berlin',
      ['RRULE:FREQ=DAILY;COUNT=1'],
      '2027-01-01 08:00:00',
      '2027-01-01 09:00:00',
    );
    const far = at(
      { ...first!, id: nextId++, occurrence_start: '2030-06-01 08:00:00' },
      '2030-06-01 08:00:00',
      '2030-06-01 09:00:00',
    );
    const listed = [first!, far].map((e) => ({ ...e, recurrence: ['RRULE:FREQ=DAILY'] }));

    const text = render(listed);

    expect(asSeen(expandCalendar(text, ...ALL))).toEqual(seen(listed));
    const [series, ...rest] = vevents(text).map(linesOf);
    expect(rest).toEqual([]);
    expect(series).toContain('RDATE;TZID=Europe/Berlin:20270101T080000,20300601T080000');
  });

  it('writes every occurrence on its own without the feed (a single event calendar)', () => {
    const all = occurrences(
      'Choir',
      'America/New_York',
      ['RRULE:FREQ=WEEKLY;COUNT=2'],
      '2027-02-23 19:00:00',
      '2027-02-23 21:00:00',
    );
    const text = renderCalendar(all, NOW);
    expect(vevents(text).map((v) => linesOf(v).find((l) => l.startsWith('UID:')))).toEqual(
      all.map((e) => `UID:event-${e.id}@calendar.test`),
    );
    expect(vevents(text).join('')).not.toContain('RRULE');
  });
});
