import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import { CalApiError } from '../client/src';
import type { ApiClient } from '../import-export/src';

/**
 * The recurring events `npm run seed` adds (issue 27; docs/recurrence.md): a weekly class, a monthly
 * meetup on the last Friday, and a daily festival of a week with one day cancelled and one moved. All
 * through the typed client, as any client would: the series is created once, then single occurrences
 * are trashed or edited with `scope=this`. Dates follow the seed's anchor day, so runs on one day match.
 */

export interface SeededSeries {
  title: string;
  seriesId: number;
  occurrences: number;
}

const fmt = (d: DateTime) => d.toFormat('yyyy-MM-dd HH:mm:ss');

function failed(what: string, e: unknown): Error {
  if (!(e instanceof CalApiError)) return e as Error;
  return new Error(`${what}: HTTP ${e.status} ${JSON.stringify(e.body).slice(0, 400)}`);
}

/** The occurrences of a series, earliest first (any occurrence's ID names it). */
async function occurrencesOf(api: ApiClient, seriesId: number) {
  const out = [];
  const query = { series: seriesId, start_date: '2000-01-01', end_date: '2100-12-31', per_page: 50 };
  for await (const e of api.items('listEvents', { query })) out.push(e);
  return out;
}

/** Creates the three series; returns each with the number of occurrences it ended with. */
export async function seedSeries(
  api: ApiClient,
  refs: { categories: Map<string, number> },
  anchor: DateTime,
): Promise<SeededSeries[]> {
  const day = anchor.toUTC().startOf('day');
  const category = (slug: string) => {
    const id = refs.categories.get(slug);
    return id ? [id] : [];
  };
  const create = async (
    title: string,
    body: Omit<Parameters<ApiClient['createEvent']>[0]['body'], 'title'>,
  ) => {
    // The retrying client repeats a 503 (rest_timeout): the key makes that repeat finish this series
    // rather than create a second one.
    const { data } = await api
      .createEvent({ body: { title, status: 'publish', ...body }, idempotencyKey: randomUUID() })
      .catch((e: unknown) => {
        throw failed(`POST /events ${JSON.stringify(title)}`, e);
      });
    return data.series_id ?? data.id;
  };

  // A class on Tuesday evenings in Berlin for half a year, from the first Tuesday after the anchor.
  const tuesday = DateTime.fromObject(
    { year: day.year, month: day.month, day: day.day },
    { zone: 'Europe/Berlin' },
  )
    .plus({ days: (2 - day.weekday + 7) % 7 || 7 })
    .set({ hour: 18, minute: 30 });
  const pottery = await create('Pottery for Beginners (weekly class)', {
    description: '<p>Six months of Tuesday evenings at the wheel. Clay and aprons provided.</p>',
    start_date: fmt(tuesday),
    end_date: fmt(tuesday.plus({ hours: 2 })),
    timezone: 'Europe/Berlin',
    categories: category('workshops'),
    recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=26'],
  });

  // A meetup on the last Friday of every month in New York, for a year.
  const month = DateTime.fromObject(
    { year: day.year, month: day.month, day: 1 },
    { zone: 'America/New_York' },
  ).plus({
    months: 1,
  });
  const lastFriday = month.endOf('month').startOf('day');
  const friday = lastFriday.minus({ days: (lastFriday.weekday - 5 + 7) % 7 }).set({ hour: 19 });
  const meetup = await create('Jazz Jam Meetup (last Friday)', {
    description: '<p>Bring your instrument: an open jam on the last Friday of the month.</p>',
    start_date: fmt(friday),
    end_date: fmt(friday.plus({ hours: 3 })),
    timezone: 'America/New_York',
    categories: category('jazz'),
    recurrence: ['RRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=12'],
  });

  // A harbour festival every day for a week, six weeks after the anchor: the fourth day is cancelled
  // (a storm warning), the sixth opens two hours late under its own title.
  const opening = DateTime.fromObject(
    { year: day.year, month: day.month, day: day.day },
    { zone: 'Europe/London' },
  )
    .plus({ weeks: 6 })
    .set({ hour: 11 });
  const festival = await create('Harbour Festival', {
    description: '<p>Boats, music and food on the quays, every day for a week.</p>',
    start_date: fmt(opening),
    end_date: fmt(opening.set({ hour: 22 })),
    timezone: 'Europe/London',
    categories: category('family'),
    recurrence: ['RRULE:FREQ=DAILY;COUNT=7'],
  });
  const days = await occurrencesOf(api, festival);
  const cancelled = days[3];
  const late = days[5];
  if (cancelled)
    await api.deleteEvent({ path: { id: cancelled.id }, query: { scope: 'this' } }).catch((e: unknown) => {
      throw failed(`DELETE /events/${cancelled.id}?scope=this`, e);
    });
  if (late) {
    const start = DateTime.fromSQL(late.start_date, { zone: 'Europe/London' }).set({ hour: 13 });
    await api
      .updateEvent({
        path: { id: late.id },
        query: { scope: 'this' },
        body: {
          title: 'Harbour Festival (late opening)',
          start_date: fmt(start),
          end_date: fmt(start.set({ hour: 23 })),
        },
      })
      .catch((e: unknown) => {
        throw failed(`POST /events/${late.id}?scope=this`, e);
      });
  }

  const out: SeededSeries[] = [];
  for (const [title, seriesId] of [
    ['Pottery for Beginners (weekly class)', pottery],
    ['Jazz Jam Meetup (last Friday)', meetup],
    ['Harbour Festival', festival],
  ] as const)
    out.push({ title, seriesId, occurrences: (await occurrencesOf(api, seriesId)).length });
  return out;
}
