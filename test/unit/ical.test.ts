import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { operations } from '../../shared/contracts';
import { eventOps } from '../../shared/contracts/events';
import { buildOpenApi } from '../../shared/docs/openapi';
import { responseValidatorFor } from '../../shared/docs/response-check';
import { descriptionText, foldContentLines, paramText } from '../../shared/domain/ical-text';
import { isNotModified } from '../../shared/http/conditional';
import { jsonResponse } from '../../shared/http/respond';
import { calendarReply } from '../../shared/http/replies';
import {
  eventUid,
  feedWindow,
  locationText,
  renderCalendar,
  sequenceOf,
  tzidOf,
  windowSlices,
} from '../../shared/services/feeds/ical';
import type { EventView } from '../../shared/services/events';

/** The pure parts of the iCalendar routes: text, zones, window, conditional GETs, the document. */

describe('descriptionText', () => {
  it('turns block ends and breaks into newlines, list items into "- " lines, and decodes entities once', () => {
    const html =
      '<p>One &amp; <strong>two</strong></p>\n<p>Three<br />four<br>five</p><ul><li>a</li><li class="x">b</li></ul>' +
      '<p>&amp;lt;kept&amp;gt; &quot;q&quot; it&#39;s\u00a0here   </p><div></div><p></p>';

    expect(descriptionText(html)).toBe(
      'One & two\n\nThree\nfour\nfive\n\n- a\n- b\n\n&lt;kept&gt; "q" it\'s here',
    );
  });

  it('keeps unicode, backslashes and source line breaks, and gives "" for an empty description', () => {
    expect(descriptionText('Grüße \\ 🎷\r\nzweite Zeile')).toBe('Grüße \\ 🎷\nzweite Zeile');
    expect(descriptionText('')).toBe('');
    expect(descriptionText('<p> </p>')).toBe('');
  });
});

describe('paramText', () => {
  it('leaves no double quote, backslash or control character in a CN', () => {
    expect(paramText(' The "Best" \\ Club\n')).toBe("The 'Best' / Club");
  });
});

describe('foldContentLines', () => {
  const lines = (text: string) => text.split('\r\n');
  const bytes = (line: string) => Buffer.byteLength(line, 'utf8');

  it('leaves lines of up to 75 octets alone and folds longer ones with a leading space', () => {
    const exact = `X:${'a'.repeat(73)}`;
    expect(foldContentLines(exact)).toBe(exact);
    const folded = lines(foldContentLines(`X:${'a'.repeat(200)}`));
    expect(folded.map(bytes)).toEqual([75, 75, 54]);
    expect(folded.slice(1).every((l) => l.startsWith(' '))).toBe(true);
    expect(folded.join('').replace(/ /g, '')).toBe(`X:${'a'.repeat(200)}`);
  });

  it('counts octets, not characters, and never splits a character', () => {
    const line = `DESCRIPTION:${'ü🎷é'.repeat(40)}`;
    const folded = lines(foldContentLines(line));
    expect(folded.length).toBeGreaterThan(4);
    for (const l of folded) {
      expect(bytes(l)).toBeLessThanOrEqual(75);
      expect(l).not.toMatch(/^ ?[\udc00-\udfff]|[\ud800-\udbff]$/);
    }
    expect(folded.map((l, i) => (i === 0 ? l : l.slice(1))).join('')).toBe(line);
  });

  it('folds every line of a multi-line text on its own', () => {
    const text = `A:${'x'.repeat(100)}\r\nB:short\r\n`;
    expect(lines(foldContentLines(text)).map(bytes)).toEqual([75, 28, 7, 0]);
  });
});

describe('tzidOf', () => {
  it('keeps IANA zones the VTIMEZONE library knows and writes UTC and fixed offsets in UTC', () => {
    expect(tzidOf('America/New_York')).toBe('America/New_York');
    expect(tzidOf('Europe/Berlin')).toBe('Europe/Berlin');
    expect(tzidOf('Asia/Kolkata')).toBe('Asia/Kolkata');
    // `europe/berlin`: a spelling Intl takes, but not a name the library has a VTIMEZONE for.
    for (const zone of [
      'UTC',
      'Etc/UTC',
      'GMT',
      'Etc/GMT+5',
      'UTC+2',
      'UTC-5:30',
      'Nowhere/City',
      '',
      'europe/berlin',
    ])
      expect(tzidOf(zone), zone).toBeUndefined();
  });
});

describe('sequenceOf', () => {
  it('grows with modified_utc, in whole seconds since 2020, and fits 32 bits for decades', () => {
    expect(sequenceOf('2020-01-01 00:00:00')).toBe(0);
    expect(sequenceOf('2026-11-23 10:00:01') - sequenceOf('2026-11-23 10:00:00')).toBe(1);
    expect(sequenceOf('2080-01-01 00:00:00')).toBeLessThan(2 ** 31);
    expect(sequenceOf(undefined)).toBe(0);
    expect(sequenceOf('not a date')).toBe(0);
  });
});

describe('locationText', () => {
  it('joins name, street, city, region with postal code, and country, skipping what is empty', () => {
    expect(
      locationText({
        venue: 'Hall',
        address: '1 Main St',
        city: 'Springfield',
        stateprovince: 'IL',
        zip: '62701',
        country: 'United States',
      }),
    ).toBe('Hall, 1 Main St, Springfield, IL 62701, United States');
    expect(locationText({ venue: 'Loft', zip: '10117', country: '' })).toBe('Loft, 10117');
    expect(locationText(undefined)).toBeUndefined();
  });
});

describe('feedWindow', () => {
  const now = new Date('2026-11-23T15:00:00Z');

  it('defaults to 30 days before and 365 days after now, as days in the site zone', async () => {
    expect(await feedWindow({}, now)).toEqual({ start_date: '2026-10-24', end_date: '2027-11-23' });
  });

  it('keeps given dates and moves a missing bound after a later start or before an earlier end', async () => {
    expect(await feedWindow({ start_date: '2030-01-01' }, now)).toEqual({
      start_date: '2030-01-01',
      end_date: '2031-01-01',
    });
    expect(await feedWindow({ end_date: '2020-06-30' }, now)).toEqual({
      start_date: '2020-05-31',
      end_date: '2020-06-30',
    });
    expect(await feedWindow({ start_date: '2026-01-01', end_date: '2026-02-01' }, now)).toEqual({
      start_date: '2026-01-01',
      end_date: '2026-02-01',
    });
  });

  it('refuses a date it cannot read with the 400 of the list', async () => {
    await expect(feedWindow({ start_date: 'soon-ish' }, now)).rejects.toThrow(
      expect.objectContaining({
        code: 'rest_invalid_param',
        data: expect.objectContaining({ params: { start_date: expect.stringMatching(/is not a date/) } }),
      }),
    );
  });
});

describe('windowSlices', () => {
  const now = new Date('2026-11-23T15:00:00Z');

  it('cuts whole days into slices that share their boundary day, keeping the outer bounds', async () => {
    expect(await windowSlices({ start_date: '2029-01-01', end_date: '2029-01-30' }, 3, now)).toEqual([
      { starts_before: '2029-01-11' },
      { start_date: '2029-01-11', starts_before: '2029-01-21' },
      { start_date: '2029-01-21' },
    ]);
  });

  it('keeps a starts_before earlier than the cut, and never makes more slices than days', async () => {
    expect(
      await windowSlices(
        { start_date: '2029-01-01', end_date: '2029-12-31', starts_before: '2029-01-04' },
        9,
        now,
      ),
    ).toEqual([
      { starts_before: '2029-01-02' },
      { start_date: '2029-01-02', starts_before: '2029-01-03' },
      { start_date: '2029-01-03' }, // starts_before=2029-01-04 of the query is the earlier bound
      { start_date: '2029-01-04' },
    ]);
    expect(await windowSlices({ start_date: '2029-01-01', end_date: '2029-01-01' }, 5, now)).toEqual([{}]);
    expect(await windowSlices({ start_date: '2029-01-01', end_date: '2029-03-01' }, 1, now)).toEqual([{}]);
  });

  it('starts at starts_after when it is later than start_date, and cuts exactly with strict dates', async () => {
    expect(
      await windowSlices(
        {
          start_date: '2029-01-01 00:00:00',
          starts_after: '2029-01-05 10:00:00',
          end_date: '2029-01-08 12:00:00',
          strict_dates: true,
        },
        2,
        now,
      ),
    ).toEqual([{ starts_before: '2029-01-07' }, { start_date: '2029-01-07' }]);
  });
});

describe('isNotModified', () => {
  const response = { ETag: 'W/"abc"', 'Last-Modified': 'Mon, 23 Nov 2026 10:00:00 GMT' };

  it('matches If-None-Match weakly, in a list, or *', () => {
    for (const tag of ['W/"abc"', '"abc"', '"x", W/"abc"', '*'])
      expect(isNotModified({ 'if-none-match': tag }, response), tag).toBe(true);
    for (const tag of ['"abcd"', 'abc', '""'])
      expect(isNotModified({ 'if-none-match': tag }, response), tag).toBe(false);
  });

  it('compares If-Modified-Since only without If-None-Match', () => {
    expect(isNotModified({ 'if-modified-since': 'Mon, 23 Nov 2026 10:00:00 GMT' }, response)).toBe(true);
    expect(isNotModified({ 'if-modified-since': 'Mon, 23 Nov 2026 09:59:59 GMT' }, response)).toBe(false);
    expect(isNotModified({ 'if-modified-since': 'garbage' }, response)).toBe(false);
    expect(
      isNotModified(
        { 'if-none-match': '"other"', 'if-modified-since': 'Mon, 23 Nov 2026 10:00:00 GMT' },
        response,
      ),
    ).toBe(false);
    expect(isNotModified({ 'if-modified-since': 'Mon, 23 Nov 2026 10:00:00 GMT' }, { ETag: 'W/"a"' })).toBe(
      false,
    );
    expect(isNotModified({}, response)).toBe(false);
  });
});

describe('calendarReply through jsonResponse', () => {
  it('sends the text as it is under text/calendar, with the caching headers', () => {
    const res = jsonResponse(
      calendarReply({ body: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR', etag: 'W/"t"' }, null),
      {
        root: 'http://x/cal/events/v1',
      } as never,
    );

    expect(res.body).toBe('BEGIN:VCALENDAR\r\nEND:VCALENDAR');
    expect(res.headers).toMatchObject({
      'Content-Type': 'text/calendar; charset=utf-8',
      ETag: 'W/"t"',
      'Cache-Control': 'public, max-age=300',
      Vary: 'Authorization',
      'X-Cal-API-Version': 'v1',
    });
    expect(res.headers).not.toHaveProperty('Last-Modified');
  });

  it('still sends JSON for a string body without a Content-Type of its own', () => {
    expect(jsonResponse({ body: 'plain' }, { root: 'http://x' } as never).body).toBe('"plain"');
  });
});

describe('renderCalendar', () => {
  const view = (over: Partial<EventView>): EventView =>
    ({
      id: 7,
      status: 'publish',
      title: 'Title',
      description: '',
      url: 'http://calendar.test/event/title/',
      all_day: false,
      start_date: '2027-03-13 22:00:00',
      end_date: '2027-03-14 10:00:00',
      utc_start_date: '2027-03-14 03:00:00',
      utc_end_date: '2027-03-14 14:00:00',
      timezone: 'America/New_York',
      modified_utc: '2026-11-23 10:00:00',
      categories: [],
      venue: [],
      organizer: [],
      ...over,
    }) as unknown as EventView;

  it('writes what ical.js reads back: UID, zone, instants, status', () => {
    const text = renderCalendar(
      [view({}), view({ id: 8, status: 'trash', timezone: 'UTC+3', utc_start_date: '2027-01-01 09:00:00' })],
      new Date('2026-11-23T12:00:00Z'),
    );
    const root = new ICAL.Component(ICAL.parse(text));
    for (const tz of root.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
    const [ny, offset] = root.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));

    expect(ny!.uid).toBe(eventUid(7));
    expect(ny!.uid).toBe('event-7@calendar.test');
    expect(ny!.startDate.zone?.tzid).toBe('America/New_York');
    expect(ny!.startDate.toUnixTime()).toBe(Date.UTC(2027, 2, 14, 3) / 1000);
    expect(ny!.endDate.toUnixTime()).toBe(Date.UTC(2027, 2, 14, 14) / 1000);
    expect(offset!.startDate.zone?.tzid).toBe('UTC');
    expect(offset!.component.getFirstPropertyValue('status')).toBe('CANCELLED');
    expect(text).toContain('\r\nDTSTAMP:20261123T120000Z\r\n');
    expect(text).toContain('\r\nLAST-MODIFIED:20261123T100000Z\r\n');
    expect(root.getAllSubcomponents('vtimezone')).toHaveLength(1);
  });

  it('writes an empty calendar when there are no events', () => {
    const text = renderCalendar([], new Date());
    expect(text).toMatch(/^BEGIN:VCALENDAR\r\n[\s\S]*\r\nEND:VCALENDAR\r\n$/);
    expect(text).not.toContain('BEGIN:VEVENT');
  });
});

describe('the iCalendar operations in /doc', () => {
  const doc = buildOpenApi('http://localhost/cal/events/v1');
  const check = responseValidatorFor(doc);

  it('are registered operations with read-only grants and public access', () => {
    expect(operations).toContain(eventOps.ical);
    expect(operations).toContain(eventOps.icalOne);
    expect(eventOps.ical.readOnly && eventOps.icalOne.readOnly).toBe(true);
    expect(eventOps.ical.access).toBe('public');
  });

  it('document text/calendar for 200, no body for 304, optional Last-Modified', () => {
    const op = doc.paths['/events/ical']!.get!;
    expect(Object.keys(op.responses['200']!.content as object)).toEqual(['text/calendar']);
    expect(op.responses['304']!.content).toBeUndefined();
    const headers = op.responses['200']!.headers as Record<string, { required?: boolean }>;
    expect(headers.ETag!.required).toBe(true);
    expect(headers['Last-Modified']!.required).toBe(false);
  });

  it('checks a calendar body and its Content-Type, and a 304 without a body', () => {
    const headers = {
      'Content-Type': 'text/calendar; charset=utf-8',
      'X-Cal-API-Version': 'v1',
      'X-Cal-API-Root': 'http://localhost/cal/events/v1/',
      ETag: 'W/"a"',
      'Cache-Control': 'no-cache',
      Vary: 'Authorization',
    };
    const body = 'BEGIN:VCALENDAR\r\nEND:VCALENDAR';
    expect(check('GET', '/events/ical', 200, body, headers)).toEqual([]);
    expect(check('GET', '/events/{id}/ical', 304, '', headers)).toEqual([]);

    expect(check('GET', '/events/ical', 200, { not: 'text' }, headers).join()).toMatch(/must be string/);
    expect(
      check('GET', '/events/ical', 200, body, { ...headers, 'Content-Type': 'application/json' }).join(),
    ).toMatch(/is not text\/calendar/);
    expect(check('GET', '/events/ical', 304, body, headers).join()).toMatch(/no body is documented/);
    const { ETag: _, ...withoutTag } = headers;
    expect(check('GET', '/events/ical', 200, body, withoutTag).join()).toMatch(/header ETag is missing/);
  });
});
