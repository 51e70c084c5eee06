import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { useStack } from '../support/use-stack';

/**
 * Imported records are checked as POST /events checks its body (issue 43; decisions §7: title 1,000
 * characters, description 100 KB): one that fails is skipped with its reason and the rest imported,
 * and nothing, not even a field over DynamoDB's 400 KB item limit, makes the import a 500.
 */

const { api, tokens } = await useStack({ tokens: { editor: 'editor' } });
const asEditor = { token: tokens.editor };

const feeds = new Map<string, string>();
const server = createServer((req, res) => {
  const text = feeds.get(req.url ?? '');
  res.writeHead(text ? 200 : 404, { 'content-type': 'text/calendar' }).end(text ?? '');
});
await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
const feedUrl = (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

/** A VEVENT; long values are folded at 70 characters, as iCalendar lines are. */
function vevent(uid: string, day: string, summary: string, description?: string): string[] {
  const fold = (line: string) => line.match(/.{1,70}/g)!.join('\r\n ');
  return [
    'BEGIN:VEVENT',
    `UID:${uid}`,
    `DTSTART:${day}T100000Z`,
    `DTEND:${day}T110000Z`,
    fold(`SUMMARY:${summary}`),
    ...(description ? [fold(`DESCRIPTION:${description}`)] : []),
    'END:VEVENT',
  ];
}

const titles = async (search: string) =>
  (
    (await api.get(`/events?search=${search}&start_date=2031-01-01&end_date=2031-12-31`, asEditor)).body
      .events as Array<{ title: string }>
  ).map((e) => e.title);

describe('imported records against the API’s limits', () => {
  it('skips a feed’s events over the limits, with their reasons, and imports the rest', async () => {
    feeds.set(
      '/limits.ics',
      [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//test//limits//EN',
        ...vevent('ok-1@test', '20310101', 'Limitfeed first'),
        ...vevent('huge@test', '20310102', 'Limitfeed huge', 'x'.repeat(900 * 1024)),
        ...vevent('title@test', '20310103', `Limitfeed ${'t'.repeat(5000)}`),
        ...vevent('desc@test', '20310104', 'Limitfeed long', 'd'.repeat(150_000)),
        ...vevent('ok-2@test', '20310105', 'Limitfeed last'),
        'END:VCALENDAR',
      ].join('\r\n'),
    );
    const made = await api.post('/imports', { url: feedUrl('/limits.ics') }, asEditor);
    expect(made.status).toBe(201);
    expect(made.body.last_run).toMatchObject({ created: 2, updated: 0 });
    const skipped = made.body.last_run.skipped as Array<{ uid: string; reason: string }>;
    expect(skipped.map((s) => s.uid)).toEqual(['huge@test', 'title@test', 'desc@test']);
    expect(skipped[0]!.reason).toMatch(
      /rest_invalid_param: description: description must be at most 100000 characters long/,
    );
    expect(skipped[1]!.reason).toMatch(/title: title must be at most 1000 characters long/);
    expect(skipped[2]!.reason).toMatch(/description must be at most 100000 characters long/);
    expect((await titles('limitfeed')).sort()).toEqual(['Limitfeed first', 'Limitfeed last']);
  }, 60_000);

  it('skips CSV rows over the limits (a 500 KB description in the second row), with their reasons', async () => {
    const header =
      'Event Name,Event Description,Event Start Date,Event Start Time,Event End Date,Event End Time';
    const csv = [
      header,
      'Limitcsv first,fine,2031-02-01,10:00,2031-02-01,11:00',
      `Limitcsv huge,${'y'.repeat(500 * 1024)},2031-02-02,10:00,2031-02-02,11:00`,
      `Limitcsv ${'n'.repeat(200_000)},,2031-02-03,10:00,2031-02-03,11:00`,
      'Limitcsv last,fine,2031-02-04,10:00,2031-02-04,11:00',
    ].join('\n');
    const send = (query = '') =>
      api.call('POST', `/imports${query}`, {
        raw: csv,
        headers: { 'content-type': 'text/csv' },
        ...asEditor,
      });
    const expected = [
      {
        line: 3,
        reason: expect.stringMatching(/^line 3: .*column "Event Description": .*at most 100000 characters/),
      },
      { line: 4, reason: expect.stringMatching(/^line 4: .*column "Event Name": .*at most 1000 characters/) },
    ];
    const dry = await send('?dry_run=true');
    expect(dry.status).toBe(200);
    expect(dry.body.last_run).toMatchObject({ created: 2, skipped: expected });
    const made = await send();
    expect(made.status).toBe(201);
    expect(made.body.last_run).toMatchObject({ created: 2, skipped: expected });
    expect((await titles('limitcsv')).sort()).toEqual(['Limitcsv first', 'Limitcsv last']);
  }, 60_000);
});
