import { describe, expect, it } from 'vitest';
import { coldHandler, type WriteFunction } from '../support/cold-functions';
import { invoke } from '../support/invoke';
import { useStack } from '../support/use-stack';
import { type Rec } from '../support/bodies';

/**
 * The venue and organizer writes load the luxon-based date parser only for a body that sends `date` or
 * `date_utc` (shared/http/lazy-parts.ts loads it for the handler; issue 9). Each function here runs in a
 * fresh module graph, as a cold Lambda does, so that no earlier write has loaded the parser for it: its
 * first request with a date must still read it (the site zone is UTC in the tests), and one without a
 * date is dated at the instant of its `modified` stamps.
 */
const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

// [date fields sent, the dates the luxon-based publicationDates gives them in UTC]
const DATED: Array<[Rec, Rec]> = [
  [{ date: '2025-01-02 03:04:05' }, { date: '2025-01-02 03:04:05', date_utc: '2025-01-02 03:04:05' }],
  [{ date: '2025-01-02T03:04:05+02:00' }, { date: '2025-01-02 01:04:05', date_utc: '2025-01-02 01:04:05' }],
  [{ date_utc: '2024-06-01' }, { date: '2024-06-01 00:00:00', date_utc: '2024-06-01 00:00:00' }],
  [
    { date: '1735787045', date_utc: '' },
    { date: '2025-01-02 03:04:05', date_utc: '2025-01-02 03:04:05' },
  ],
];

describe('the first venue or organizer write with a date after a cold start', () => {
  for (const [type, name] of [
    ['venues', 'venue'],
    ['organizers', 'organizer'],
  ] as const) {
    const create = `${type}/create-${name}` as WriteFunction;
    const update = `${type}/update-${name}` as WriteFunction;

    it.each(DATED)(`creates a ${name} with %j`, async (fields, dates) => {
      const res = await invoke(await coldHandler(create), 'POST', `/${type}`, {
        token: editor,
        body: { [name]: `Dated ${name}`, ...fields },
      });
      expect(res.status, res.text).toBe(201);
      expect({ date: res.body.date, date_utc: res.body.date_utc }).toEqual(dates);
    });

    it.each(DATED)(`updates a ${name} with %j`, async (fields, dates) => {
      const made = await api.post(`/${type}`, { [name]: `Plain ${name}` }, { token: editor });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const res = await invoke(await coldHandler(update), 'POST', `/${type}/${made.body.id}`, {
        token: editor,
        pathParameters: { id: String(made.body.id) },
        body: fields,
      });
      expect(res.status, res.text).toBe(200);
      expect({ date: res.body.date, date_utc: res.body.date_utc }).toEqual(dates);
    });

    it(`answers a bad date of a ${name} with the 400 it gave`, async () => {
      const res = await invoke(await coldHandler(create), 'POST', `/${type}`, {
        token: editor,
        body: { [name]: `Undated ${name}`, date_utc: 'foo' },
      });
      expect(res.status, res.text).toBe(400);
      expect(res.body).toMatchObject({
        code: 'rest_invalid_param',
        data: {
          status: 400,
          params: { date_utc: expect.stringMatching(/^date_utc is not a date: use Y-m-d H:i:s, .*m\/d\/Y/) },
        },
      });
    });

    it(`dates a ${name} sent without a date at its modified stamps`, async () => {
      const res = await invoke(await coldHandler(create), 'POST', `/${type}`, {
        token: editor,
        body: { [name]: `Now ${name}`, date: '' },
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body.date).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(res.body.date).toBe(res.body.modified);
      expect(res.body.date_utc).toBe(res.body.modified_utc);
    });
  }

  it('creates an event with an inline venue that sends a date', async () => {
    const res = await invoke(await coldHandler('events/create-event'), 'POST', '/events', {
      token: editor,
      body: {
        title: 'Inline dated',
        start_date: '2031-05-01 10:00:00',
        end_date: '2031-05-01 11:00:00',
        venue: { venue: 'Inline dated hall', date: '2025-01-02T03:04:05Z' },
      },
    });
    expect(res.status, res.text).toBe(201);
    const venue = await api.get(`/venues/${res.body.venue.id}`, { token: editor });
    expect({ date: venue.body.date, date_utc: venue.body.date_utc }).toEqual({
      date: '2025-01-02 03:04:05',
      date_utc: '2025-01-02 03:04:05',
    });
  });

  // Event dates in any form but `Y-m-d H:i:s` load luxon on first use (shared/domain/event-times.ts).
  it.each([
    [
      { start_date: '2031-05-01T10:00:00+02:00', end_date: '2031-05-01T11:00:00+02:00' },
      '2031-05-01 08:00:00',
    ],
    [{ start_date: 1935742800, end_date: 1935746400 }, '2031-05-05 10:20:00'],
    [{ start_date: '2031-05-01 10:00:00', end_date: '2031-05-01T11:00:00Z' }, '2031-05-01 10:00:00'],
  ])('creates an event from the dates %j after a cold start', async (dates, utcStart) => {
    const res = await invoke(await coldHandler('events/create-event'), 'POST', '/events', {
      token: editor,
      body: { title: 'Cold dates', ...dates },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.utc_start_date).toBe(utcStart);
  });

  it('moves an event to a new zone and to ISO dates on updates after a cold start', async () => {
    const made = await api.post(
      '/events',
      { title: 'Moving', start_date: '2031-05-02 10:00:00', end_date: '2031-05-02 12:00:00' },
      { token: editor },
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const update = async (body: Rec) =>
      invoke(await coldHandler('events/update-event'), 'POST', `/events/${made.body.id}`, {
        token: editor,
        pathParameters: { id: String(made.body.id) },
        body,
      });
    const moved = await update({ timezone: 'America/New_York' });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({
      start_date: '2031-05-02 10:00:00',
      utc_start_date: '2031-05-02 14:00:00',
    });
    const iso = await update({ end_date: '2031-05-02T20:00:00Z' });
    expect(iso.status, iso.text).toBe(200);
    expect(iso.body).toMatchObject({ end_date: '2031-05-02 16:00:00', utc_end_date: '2031-05-02 20:00:00' });
  });
});
