import { describe, expect, it } from 'vitest';
import type { EventRecord } from '../../shared/domain/event-record';
import { editedFields, type SharedFields, sharedWith, withShared } from '../../shared/domain/series-fields';

/**
 * Which fields an occurrence shares with its series, and which it keeps when edited alone
 * (shared/domain/series-fields.ts, docs/recurrence.md). test/integration/recurring-scopes.test.ts keeps
 * proving them through HTTP ("scope=all changes every occurrence and leaves an exception's own fields").
 */

const occurrence = (over: Partial<EventRecord['data']> = {}, own: Partial<EventRecord> = {}): EventRecord =>
  ({
    id: 8,
    type: 'event',
    title: 'Jazz Night',
    description: '<p>Trio</p>',
    excerpt: '',
    status: 'publish',
    author: 'ed',
    date: '2031-01-01 10:00:00',
    date_utc: '2031-01-01 09:00:00',
    data: {
      start: '2031-03-12 19:00:00',
      end: '2031-03-12 22:00:00',
      cost: { kind: 'free' },
      website: 'https://jazz.example/',
      showMap: true,
      showMapLink: true,
      hideFromListings: false,
      sticky: false,
      featured: false,
      venues: [4],
      organizers: [5],
      categories: [12],
      tags: [],
      series: { id: 7, lines: [], text: '', start: '2031-03-12 19:00:00', exception: false, edited: [] },
      ...over,
    },
    ...own,
  }) as unknown as EventRecord;

const template = (
  over: Partial<SharedFields['data']> = {},
  own: Partial<SharedFields> = {},
): SharedFields => {
  const { series: _series, ...data } = occurrence().data;
  return { ...occurrence(), ...own, data: { ...data, ...over } } as SharedFields;
};

describe('editedFields', () => {
  it('keeps the body fields an occurrence records, date_utc as date, sorted', () => {
    expect(editedFields(['venue', 'title', 'date_utc', 'start_date', 'recurrence', 'no_such'])).toEqual([
      'date',
      'start_date',
      'title',
      'venue',
    ]);
  });

  it('counts each field once', () => {
    expect(editedFields(['date', 'date_utc', 'title', 'title'])).toEqual(['date', 'title']);
  });
});

describe('withShared', () => {
  it('copies every shared field of the series onto the occurrence, leaving its own times and series', () => {
    const from = template({ venues: [9], featured: true, tags: [13] }, { title: 'Jazz Night (new)' });
    const to = occurrence({ start: '2031-03-19 19:00:00' });

    const next = withShared(from, to);

    expect(next.title).toBe('Jazz Night (new)');
    expect(next.data).toMatchObject({
      venues: [9],
      featured: true,
      tags: [13],
      start: '2031-03-19 19:00:00',
    });
    expect(next.data.series).toEqual(to.data.series);
  });

  it('keeps the fields edited on the occurrence alone', () => {
    const from = template({ venues: [9] }, { title: 'Jazz Night (new)' });
    const to = occurrence({ venues: [6] }, { title: 'Jazz Night (moved to the park)' });

    const next = withShared(from, to, ['title', 'venue']);

    expect(next.title).toBe('Jazz Night (moved to the park)');
    expect(next.data.venues).toEqual([6]);
  });

  it('removes an optional field the series no longer has (a website taken away)', () => {
    const from = template({ website: undefined });

    expect('website' in withShared(from, occurrence()).data).toBe(false);
  });

  it('copies date and date_utc together', () => {
    const from = template({}, { date: '2031-02-01 10:00:00', date_utc: '2031-02-01 09:00:00' });

    expect(withShared(from, occurrence())).toMatchObject({
      date: '2031-02-01 10:00:00',
      date_utc: '2031-02-01 09:00:00',
    });
  });

  it('changes neither of its arguments', () => {
    const from = template({ venues: [9] });
    const to = occurrence();
    const before = structuredClone(to);

    withShared(from, to);

    expect(to).toEqual(before);
  });
});

describe('sharedWith', () => {
  it('takes only the fields a write sent from the occurrence it wrote', () => {
    const written = occurrence(
      { cost: { kind: 'text', text: '10' } as never, organizers: [11] },
      { title: 'Late Jazz' },
    );

    const next = sharedWith(template(), written, ['title', 'organizer']);

    expect(next.title).toBe('Late Jazz');
    expect(next.data.organizers).toEqual([11]);
    expect(next.data.cost).toEqual(template().data.cost);
  });

  it('ignores fields that are not shared (times, unknown ones)', () => {
    const written = occurrence({ start: '2031-04-01 19:00:00' });

    expect(sharedWith(template(), written, ['start_date', 'nonsense'])).toEqual(template());
  });
});
