import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CalEvent } from '../../web/src/api-types';
import { NO_CATEGORY, setCategories } from '../../web/src/colours';
import { localDate, overlaps, rangeQuery, toInputEvent } from '../../web/src/event-input';

/** The calendar's events for a visible range, as FullCalendar draws them (web/src/event-input.ts). */
const event = (over: Partial<CalEvent> = {}): CalEvent =>
  ({
    id: 7,
    title: 'Jazz Night',
    slug: 'jazz-night',
    status: 'publish',
    featured: false,
    all_day: false,
    start_date: '2031-03-12 19:00:00',
    end_date: '2031-03-12 22:00:00',
    utc_start_date: '2031-03-12 19:00:00',
    utc_end_date: '2031-03-12 22:00:00',
    venue: [],
    categories: [],
    ...over,
  }) as unknown as CalEvent;

// The viewer's zone decides local days: UTC here, so that days and instants agree.
const zone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'UTC';
});
afterAll(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

describe('rangeQuery', () => {
  it('widens the visible range by 14 hours each way, as wall times', () => {
    expect(rangeQuery(new Date('2031-03-01T00:00:00Z'), new Date('2031-04-01T00:00:00Z'))).toEqual({
      ends_after: '2031-02-28 10:00:00',
      starts_before: '2031-04-01 14:00:00',
    });
  });
});

describe('overlaps', () => {
  const start = new Date('2031-03-12T00:00:00Z');
  const end = new Date('2031-03-13T00:00:00Z');
  it('keeps a timed event by its instants, a range end being exclusive', () => {
    expect(overlaps(event(), start, end)).toBe(true);
    expect(
      overlaps(
        event({ utc_start_date: '2031-03-11 23:00:00', utc_end_date: '2031-03-12 00:30:00' }),
        start,
        end,
      ),
    ).toBe(true);
    expect(
      overlaps(
        event({ utc_start_date: '2031-03-11 22:00:00', utc_end_date: '2031-03-12 00:00:00' }),
        start,
        end,
      ),
    ).toBe(false);
    expect(
      overlaps(
        event({ utc_start_date: '2031-03-13 00:00:00', utc_end_date: '2031-03-13 01:00:00' }),
        start,
        end,
      ),
    ).toBe(false);
  });

  it('keeps an all-day event by its days', () => {
    const allDay = (s: string, e: string) =>
      event({ all_day: true, start_date: `${s} 00:00:00`, end_date: `${e} 23:59:59` });
    expect(overlaps(allDay('2031-03-10', '2031-03-12'), start, end)).toBe(true);
    expect(overlaps(allDay('2031-03-13', '2031-03-13'), start, end)).toBe(false);
    expect(overlaps(allDay('2031-03-10', '2031-03-11'), start, end)).toBe(false);
  });
});

describe('toInputEvent', () => {
  it("draws a timed event at its UTC instants, linked to its page, in its category's colour", () => {
    setCategories([{ id: 3, name: 'Music', slug: 'music', parent: 0 }]);
    const input = toInputEvent(
      event({
        categories: [{ id: 3 }] as CalEvent['categories'],
        venue: [{ id: 1, venue: 'The Hall' }] as never,
      }),
      false,
    );
    expect(input).toMatchObject({
      id: '7',
      url: '/event/jazz-night/',
      title: 'Jazz Night',
      start: '2031-03-12T19:00:00Z',
      end: '2031-03-12T22:00:00Z',
      classNames: ['status-publish'],
      extendedProps: { status: 'publish', category: 'Music', venue: 'The Hall' },
    });
    expect(input.backgroundColor).toBe(input.borderColor);
    expect(input.backgroundColor).not.toBe(NO_CATEGORY);
  });

  it('names a status other than published, coloured by its border only; a featured one says so', () => {
    setCategories([]);
    const input = toInputEvent(event({ status: 'draft', featured: true }), false);
    expect(input.title).toBe('Jazz Night (Draft)');
    expect(input.classNames).toEqual(['status-draft', 'featured']);
    expect(input.borderColor).toBe(NO_CATEGORY);
    expect(input.backgroundColor).toBeUndefined();
  });

  it('draws an all-day event by its days, the end exclusive', () => {
    const input = toInputEvent(
      event({ all_day: true, start_date: '2031-03-12 00:00:00', end_date: '2031-03-14 23:59:59' }),
      true,
    );
    expect(input).toMatchObject({ allDay: true, start: '2031-03-12', end: '2031-03-15' });
  });

  it('draws a timed event of a day or more as a bar in the week and day views only', () => {
    const long = event({ utc_start_date: '2031-03-12 19:00:00', utc_end_date: '2031-03-14 03:00:00' });
    // It ends before 06:00 on the 14th: its last day is the 13th.
    expect(toInputEvent(long, true)).toMatchObject({ allDay: true, start: '2031-03-12', end: '2031-03-14' });
    expect(toInputEvent(long, false)).toMatchObject({
      start: '2031-03-12T19:00:00Z',
      end: '2031-03-14T03:00:00Z',
    });
    expect(toInputEvent(long, false).allDay).toBeUndefined();
  });

  it("a day is the viewer's", () => {
    expect(localDate(new Date('2031-03-12T23:30:00Z'))).toBe('2031-03-12');
  });
});
