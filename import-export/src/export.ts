import { escapeFormula } from '../../shared/domain/csv-formulas';
import { LIVE_STATUSES } from '../../shared/domain/statuses';
import { stringify } from 'csv-stringify/sync';
import type { Event } from '../../client/src';
import type { ApiClient } from './api-client';
import { EVENT_COLUMNS, eventToRow } from './csv-columns';
import { ORGANIZER_COLUMNS, organizerToRow, VENUE_COLUMNS, venueToRow } from './csv-linked';

/**
 * The whole calendar read through the typed client, every status, as the export writes it (the CLI:
 * import-export/cli/export.ts).
 *
 * - jsonl: one record a line, `{"collection": "categories", ...the record as the API answers it}`,
 *   categories, tags, venues, organizers, then events.
 * - csv: the events (`--type venues|organizers`: those), in the reference plugin's columns plus ours
 *   (what `npm run import -- csv` reads).
 * - ics: the service's own iCalendar feed (`/events/ical`), asked one year of starts at a time (a month
 *   at a time for a year that reaches the feed's cap), as one calendar.
 */

const ALL_DATES = { start_date: '1970-01-01', end_date: '2199-12-31' } as const;

/**
 * Every event: the listed ones, then those hidden from listings (which no list shows unless asked by
 * an editing role with hide_from_listings=true).
 */
export async function* allEvents(api: ApiClient): AsyncGenerator<Event> {
  for (const hidden of [false, true])
    yield* api.items('listEvents', {
      query: {
        ...ALL_DATES,
        status: [...LIVE_STATUSES],
        per_page: 50,
        ...(hidden ? { hide_from_listings: true } : {}),
      },
    });
}

export async function* jsonl(api: ApiClient): AsyncGenerator<string> {
  const line = (collection: string, r: object) => `${JSON.stringify({ collection, ...r })}\n`;
  for await (const c of api.items('listCategories', { query: { hide_empty: false, per_page: 50 } }))
    yield line('categories', c);
  for await (const t of api.items('listTags', { query: { hide_empty: false, per_page: 50 } }))
    yield line('tags', t);
  for await (const v of api.items('listVenues', { query: { status: [...LIVE_STATUSES], per_page: 50 } }))
    yield line('venues', v);
  for await (const o of api.items('listOrganizers', { query: { status: [...LIVE_STATUSES], per_page: 50 } }))
    yield line('organizers', o);
  for await (const e of allEvents(api)) yield line('events', e);
}

/** One CSV line, every formula cell behind a `'` (CSV injection: shared/domain/csv-formulas.ts). */
const csvLine = (cells: readonly string[]) => stringify([cells.map(escapeFormula)]);

export async function* csv(
  api: ApiClient,
  type: 'events' | 'venues' | 'organizers' = 'events',
): AsyncGenerator<string> {
  const query = { status: [...LIVE_STATUSES], per_page: 50 };
  if (type === 'venues') {
    yield csvLine(VENUE_COLUMNS);
    for await (const v of api.items('listVenues', { query }))
      yield csvLine(VENUE_COLUMNS.map((c) => venueToRow(v)[c]));
  } else if (type === 'organizers') {
    yield csvLine(ORGANIZER_COLUMNS);
    for await (const o of api.items('listOrganizers', { query }))
      yield csvLine(ORGANIZER_COLUMNS.map((c) => organizerToRow(o)[c]));
  } else {
    yield csvLine(EVENT_COLUMNS);
    for await (const e of allEvents(api)) yield csvLine(EVENT_COLUMNS.map((c) => eventToRow(e)[c]));
  }
}

/** The blocks of a feed: its head (up to the first component), VTIMEZONEs and VEVENTs. */
function blocks(feed: string): { head: string[]; zones: Map<string, string>; events: string[] } {
  const lines = feed.split(/\r\n/);
  const head: string[] = [];
  const zones = new Map<string, string>();
  const events: string[] = [];
  let current: string[] | undefined;
  let kind = '';
  for (const line of lines) {
    if (!current && (line === 'BEGIN:VTIMEZONE' || line === 'BEGIN:VEVENT')) {
      current = [];
      kind = line.slice(6);
    }
    if (current) {
      current.push(line);
      if (line === `END:${kind}`) {
        const text = current.join('\r\n');
        if (kind === 'VEVENT') events.push(text);
        else zones.set(/^TZID:(.*)$/m.exec(text)?.[1] ?? text, text);
        current = undefined;
      }
    } else if (line && line !== 'END:VCALENDAR') head.push(line);
  }
  return { head, zones, events };
}

export async function* ics(api: ApiClient): AsyncGenerator<string> {
  /** Events starting in each year, as the JSON list has them: the listed ones, then the hidden ones. */
  const years = new Map<string, number>();
  for await (const e of allEvents(api)) {
    const key = `${e.start_date.slice(0, 4)}|${e.hide_from_listings ? 'hidden' : 'listed'}`;
    years.set(key, (years.get(key) ?? 0) + 1);
  }
  let head: string[] | undefined;
  const zones = new Map<string, string>();
  const events: string[] = [];
  let hidden = false;
  const feed = async (start: string, end: string) => {
    const { data } = await api.getEventsIcal({
      query: {
        start_date: start,
        end_date: end,
        status: [...LIVE_STATUSES],
        limit: 100_000,
        ...(hidden ? { hide_from_listings: true } : {}),
      },
    });
    return blocks(String(data));
  };
  // A feed lists the events that start on or after its start day and end by its end day: a window
  // of two years keeps an event that starts in the first and ends in the second.
  const startYear = (vevent: string) => Number(/^DTSTART[^:]*:(\d{4})/m.exec(vevent)?.[1]);
  for (const [key, count] of [...years].sort(([a], [b]) => a.localeCompare(b))) {
    const year = Number(key.slice(0, 4));
    hidden = key.endsWith('hidden');
    let parts = [await feed(`${year}-01-01`, `${year + 1}-12-31`)];
    // Fewer than the year's events: the feed's cap was reached, so it is asked a month at a time.
    if (parts[0]!.events.filter((e) => startYear(e) === year).length < count)
      parts = await Promise.all(
        Array.from({ length: 12 }, (_, m) => {
          const mm = String(m + 1).padStart(2, '0');
          return feed(
            `${year}-${mm}-01`,
            `${year + 1}-${mm}-${new Date(Date.UTC(year + 1, m + 1, 0)).getUTCDate()}`,
          );
        }),
      );
    for (const p of parts) {
      head ??= p.head;
      for (const [id, z] of p.zones) zones.set(id, z);
      events.push(...p.events.filter((e) => startYear(e) === year || !startYear(e)));
    }
  }
  // An event that spans a year's end is in both years' feeds: once is enough.
  const seen = new Set<string>();
  const unique = events.filter((e) => {
    const uid = /^UID:(.*)$/m.exec(e)?.[1] ?? e;
    return !seen.has(uid) && seen.add(uid);
  });
  if (!head) {
    const { data } = await api.getEventsIcal({ query: { start_date: '1970-01-01', end_date: '1970-01-01' } });
    head = blocks(String(data)).head;
  }
  yield [...head, ...zones.values(), ...unique, 'END:VCALENDAR', ''].join('\r\n');
}
