import { describe, expect, it } from 'vitest';
import { anEvent } from '../support/bodies';
import { useStack } from '../support/use-stack';

/**
 * Dates in the forms PHP's strtotime reads that clients of the reference send (issue 39, decisions §9),
 * through HTTP: the stored start is what the reference stores, read in the event's zone; an impossible
 * calendar day stays a 400 whose message lists the forms. The clock is fixed at a Sunday,
 * 2027-01-10 12:00 UTC (07:00 in New York).
 */
const {
  api,
  tokens: { editor },
} = await useStack({ now: new Date('2027-01-10T12:00:00Z'), tokens: { editor: 'editor' } });

const create = (start: string, timezone = 'America/New_York') =>
  api.post('/events', anEvent({ start_date: start, end_date: start, timezone }), { token: editor });

describe('start_date in the forms of strtotime', () => {
  it.each([
    ['03/15/2027 7pm', '2027-03-15 19:00:00', '2027-03-15 23:00:00'],
    ['15.03.2027 19:00', '2027-03-15 19:00:00', '2027-03-15 23:00:00'],
    ['Mon, 15 Mar 2027 19:00:00 +0000', '2027-03-15 15:00:00', '2027-03-15 19:00:00'],
    ['tomorrow noon', '2027-01-11 12:00:00', '2027-01-11 17:00:00'],
    ['+1 week 2 hours', '2027-01-17 09:00:00', '2027-01-17 14:00:00'],
    ['last day of next month', '2027-02-28 07:00:00', '2027-02-28 12:00:00'],
    ['next monday 10am', '2027-01-11 10:00:00', '2027-01-11 15:00:00'],
  ])('"%s" in New York is %s (UTC %s)', async (input, start, utc) => {
    const res = await create(input);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ start_date: start, utc_start_date: utc, end_date: start });
  });

  it('reads a wall time in the event zone, not the site zone', async () => {
    const res = await create('03/15/2027 7pm', 'Asia/Tokyo');
    expect(res.body).toMatchObject({
      start_date: '2027-03-15 19:00:00',
      utc_start_date: '2027-03-15 10:00:00',
    });
  });

  it.each(['2027-02-30', '2027-02-30 10:00', '02/30/2027 7pm', '30.02.2027 19:00', 'someday'])(
    '"%s" is a 400 that lists the accepted forms',
    async (input) => {
      const res = await create(input);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('rest_invalid_param');
      const reason = res.body.data.params.start_date as string;
      for (const form of [
        'Y-m-d H:i:s',
        'ISO 8601',
        'Unix timestamp',
        'm/d/Y',
        'd.m.Y',
        'RFC 2822',
        'tomorrow noon',
      ])
        expect(reason).toContain(form);
    },
  );

  it('lists the forms in /doc', async () => {
    const doc = JSON.stringify((await api.get('/doc')).body);
    for (const form of [
      'm/d/Y (03/15/2027 7pm)',
      'd.m.Y (15.03.2027 19:00)',
      'RFC 2822',
      'last day of next month',
    ])
      expect(doc).toContain(form);
  });

  it('takes the forms in list filters too', async () => {
    const res = await api.get(
      `/events?start_date=${encodeURIComponent('03/01/2027')}&end_date=${encodeURIComponent('31.03.2027')}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});
