import { beforeAll, describe, expect, it } from 'vitest';
import { STATUS_SHARDS } from '../../shared/db/keys';
import { measure } from '../support/db-calls';
import { useStack } from '../support/use-stack';
import { type Rec } from '../support/bodies';

/**
 * Reads at the ends of the calendar and past the end of a list (issue 24): every date parameter of
 * every event list answers 200 or a 400 naming it, at year 1, at year 9999 and across them, and a term
 * page far past the end answers 200 and empty (decisions §5) at the cost of one page. The calendar is
 * 0001-01-01 00:00:00 to 9999-12-31 23:59:59 (shared/domain/calendar.ts); a date outside it is a 400.
 */
const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

const DATE_PARAMS = ['start_date', 'end_date', 'starts_before', 'starts_after', 'ends_before', 'ends_after'];
const IN_CALENDAR = [
  '0001-01-01',
  '0001-01-01 00:00:00',
  '9999-12-31',
  '9999-12-31 23:59:59',
  '9999-12-31T12:00Z',
];
/** Dates that read as dates but fall outside the calendar (the site zone is UTC). */
const OUTSIDE = ['+99999 years', '-2100 years', '9999-12-31T23:00:00-10:00', '0001-01-01T00:00:00+01:00'];

let first: Rec;
let paris: Rec;
let last: Rec;

/** A GET of the JSON or iCalendar routes: the status, and the envelope when the answer is JSON. */
async function read(pathAndQuery: string): Promise<{ status: number; body: Rec; text: string }> {
  const res = await fetch(`${api.base}${pathAndQuery}`);
  const text = await res.text();
  const json = (res.headers.get('content-type') ?? '').includes('json');
  return { status: res.status, body: json ? JSON.parse(text) : {}, text };
}

beforeAll(async () => {
  const create = async (body: Rec) => {
    const res = await api.post('/events', body, { token: editor });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as Rec;
  };
  first = await create({
    title: 'First day',
    start_date: '0001-01-01 00:00:00',
    end_date: '0001-01-01 01:00',
  });
  paris = await create({
    title: 'First noon in Paris',
    start_date: '0001-01-01 12:00',
    end_date: '0001-01-01 13:00',
    timezone: 'Europe/Paris',
  });
  last = await create({
    title: 'Last second',
    start_date: '9999-12-31 22:00',
    end_date: '9999-12-31 23:59:59',
  });
  for (let i = 1; i <= 3; i++)
    expect((await api.post('/tags', { name: `Tag ${i}` }, { token: editor })).status).toBe(201);
});

describe('event lists at the ends of the calendar', () => {
  it.each(['/events', '/events/ical'])(
    '%s answers 200 for every date parameter at year 1 and 9999',
    async (path) => {
      for (const param of DATE_PARAMS)
        for (const strict of ['', '&strict_dates=true'])
          for (const value of IN_CALENDAR) {
            const query = `${param}=${encodeURIComponent(value)}${strict}`;
            const res = await read(`${path}?${query}`);
            expect(res.status, `${path}?${query}: ${JSON.stringify(res.body)}`).toBe(200);
          }
    },
  );

  it.each(['/events', '/events/ical'])(
    '%s answers a 400 naming the parameter for a date outside it',
    async (path) => {
      for (const param of DATE_PARAMS)
        for (const value of OUTSIDE) {
          const res = await read(`${path}?${param}=${encodeURIComponent(value)}`);
          expect(res.status, `${param}=${value}`).toBe(400);
          expect(res.body.data.params, `${param}=${value}`).toEqual({
            [param]: expect.stringContaining(param),
          });
          expect(res.body.data.details[param].code).toBe('rest_date_out_of_range');
        }
    },
  );

  it('lists the events on the first and the last day, from the tallies and across the whole calendar', async () => {
    const ids = async (query: string) => {
      const res = await api.get(`/events?${query}`);
      expect(res.status, `${query}: ${JSON.stringify(res.body)}`).toBe(200);
      return (res.body.events as Rec[]).map((e) => e.id);
    };
    // ends_before is `end < D 23:59:59`: the last second itself is not before it.
    expect(await ids('ends_before=9999-12-31')).toEqual([first.id, paris.id]);
    expect(await ids('ends_after=9999-12-30')).toEqual([last.id]);
    expect(await ids('ends_after=9999-12-31')).toEqual([]);
    expect(await ids('start_date=9999-12-31&end_date=9999-12-31')).toEqual([last.id]);
    expect(await ids('starts_before=0001-01-01')).toEqual([first.id, paris.id]);
    expect(await ids('start_date=0001-01-01&end_date=9999-12-31')).toEqual([first.id, paris.id, last.id]);
    // Strict dates: end_date=9999-12-31 is its midnight, before the last event ends.
    expect(await ids('start_date=0001-01-01&end_date=9999-12-31&strict_dates=true')).toEqual([
      first.id,
      paris.id,
    ]);
    expect(await ids('start_date=0001-01-01&end_date=9999-12-31+23:59:59&strict_dates=true')).toEqual([
      first.id,
      paris.id,
      last.id,
    ]);
  });

  it('feeds that default a window end past the calendar end it on its last day', async () => {
    for (const query of ['start_date=9999-12-01', 'end_date=0001-01-05', 'start_date=9999-12-31']) {
      const res = await read(`/events/ical?${query}`);
      expect(res.status, `${query}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    const feed = await read('/events/ical?start_date=9999-12-01');
    expect(feed.text).toContain('SUMMARY:Last second');
    // Every date the feed writes has its eight digits, in year 1 and in a zone too.
    const all = await read('/events/ical?start_date=0001-01-01&end_date=9999-12-31');
    const dates = all.text.match(/^DT(START|END)[;:].*$/gm) ?? [];
    expect(dates).toHaveLength(6);
    for (const line of dates) expect(line).toMatch(/^DT(START|END)(;TZID=[^:]+)?:\d{8}T\d{6}Z?$/);
  });

  it('refuses event times whose UTC instant falls outside the calendar, naming the field', async () => {
    const res = await api.post(
      '/events',
      {
        title: 'Too late',
        start_date: '9999-12-31 22:00',
        end_date: '9999-12-31 23:00',
        timezone: 'America/New_York',
      },
      { token: editor },
    );
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.data.params)).toEqual(['start_date']);
    const date = await api.post(
      '/events',
      { title: 'Published later', start_date: '2027-01-01', end_date: '2027-01-01', date: '+9000 years' },
      { token: editor },
    );
    expect(date.status).toBe(400);
    expect(date.body.data.details.date.code).toBe('rest_date_out_of_range');
  });
});

describe('term pages past the end', () => {
  it.each([
    ['tags', 99_999_999, 100],
    ['categories', 214_748_365, 10],
    ['tags', 2_147_483_648, 1],
    ['tags', 2, 50],
  ])('/%s?page=%d&per_page=%d answers 200 and empty, reading no terms', async (collection, page, perPage) => {
    for (const hide of ['', '&hide_empty=false']) {
      const { result, items } = await measure(() =>
        api.get(`/${collection}?page=${page}&per_page=${perPage}${hide}`, { token: editor }),
      );
      expect(result.status, JSON.stringify(result.body)).toBe(200);
      expect(result.body[collection]).toEqual([]);
      if (hide) expect(result.body.total).toBe(collection === 'tags' ? 3 : 0);
      // The totals' shards, and no term: the page starts past the last one.
      expect(items).toBeLessThanOrEqual(STATUS_SHARDS);
    }
  });

  it('still reads a later page inside the list', async () => {
    const res = await api.get('/tags?hide_empty=false&per_page=2&page=2', { token: editor });
    expect(res.status).toBe(200);
    expect((res.body.tags as Rec[]).map((t) => t.name)).toEqual(['Tag 3']);
  });
});
