import { describe, expect, it } from 'vitest';
import { readFeed } from '../../shared/domain/ics-feed';

// The reference plugin's iCal export as it really writes it (issue 40, fact 7): all-day events as
// DATE-TIME T000000-T235959 in TZID=UTC, one VTIMEZONE with several TZIDs, and an event without a
// venue that may carry the previous event's LOCATION.

const vevent = (uid: string, start: string, end: string, extra: string[] = []) => [
  'BEGIN:VEVENT',
  `UID:${uid}`,
  `DTSTART;TZID=UTC:${start}`,
  `DTEND;TZID=UTC:${end}`,
  `SUMMARY:Event ${uid}`,
  ...extra,
  'END:VEVENT',
];
const feed = (prodid: string, ...events: string[][]) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${prodid}`,
    'BEGIN:VTIMEZONE',
    'TZID:UTC',
    'BEGIN:STANDARD',
    'TZOFFSETFROM:+0000',
    'TZOFFSETTO:+0000',
    'TZNAME:UTC',
    'DTSTART:20250101T000000',
    'END:STANDARD',
    'END:VTIMEZONE',
    ...events.flat(),
    'END:VCALENDAR',
  ].join('\r\n');
const PLUGIN = '-//Example Site - ECPv6.0.3.1//NONSGML v1.0//EN';

describe("the reference plugin's iCal export", () => {
  it('reads 00:00-23:59:59 and whole-day spans as all-day days', () => {
    const { items, skipped } = readFeed(
      feed(
        PLUGIN,
        vevent('1', '20270301T000000', '20270301T235959'),
        vevent('2', '20270305T000000', '20270307T235959'),
        vevent('3', '20270310T000000', '20270312T000000'),
        vevent('4', '20270315T190000', '20270315T210000'),
      ),
    );
    expect(skipped).toEqual([]);
    expect(items.map((i) => [i.body.all_day, i.body.start_date, i.body.end_date])).toEqual([
      [true, '2027-03-01', '2027-03-01'],
      [true, '2027-03-05', '2027-03-07'],
      [true, '2027-03-10', '2027-03-11'],
      [false, '2027-03-15 19:00:00', '2027-03-15 21:00:00'],
    ]);
  });

  it('does not read other feeds by that convention', () => {
    const { items } = readFeed(feed('-//Other//EN', vevent('1', '20270301T000000', '20270301T235959')));
    expect(items[0]!.body.all_day).toBe(false);
  });

  it('does not trust a LOCATION repeated from the previous event unless its GEO repeats too', () => {
    const { items } = readFeed(
      feed(
        PLUGIN,
        vevent('1', '20270301T190000', '20270301T210000', [
          'LOCATION:Old Theatre\\, London',
          'GEO:51.5;-0.12',
        ]),
        vevent('2', '20270302T190000', '20270302T210000', ['LOCATION:Old Theatre\\, London']),
        vevent('3', '20270303T190000', '20270303T210000', ['LOCATION:Town Hall', 'GEO:59.9;10.7']),
        vevent('4', '20270304T190000', '20270304T210000', ['LOCATION:Town Hall', 'GEO:59.9;10.7']),
      ),
    );
    expect(items.map((i) => i.body.venue?.venue ?? null)).toEqual([
      'Old Theatre, London',
      null,
      'Town Hall',
      'Town Hall',
    ]);
  });
});
