import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { main as importCli } from '../../import-export/cli/import';
import { loadEveryBodyPart } from '../../shared/http/lazy-parts';
import { runDueImports } from '../../shared/services/imports';
import { startSecondStack } from '../support/second-stack';
import { useStack } from '../support/use-stack';

/** POST /imports of iCalendar feeds (issue 30): Google, Outlook and Apple shapes, re-syncs, bad input, SSRF. */

const { api, tokens } = await useStack({ tokens: { editor: 'editor', author: 'author' } });
const asEditor = { token: tokens.editor };
const fixture = (name: string) =>
  readFileSync(new URL(`../support/ics/${name}.ics`, import.meta.url), 'utf8');

/** The feeds' server: paths to texts, changed by the tests, and how often each was fetched. */
const feeds = new Map<string, string>();
const fetches = new Map<string, number>();
const server = createServer((req, res) => {
  fetches.set(req.url ?? '', (fetches.get(req.url ?? '') ?? 0) + 1);
  const text = feeds.get(req.url ?? '');
  res.writeHead(text ? 200 : 404, { 'content-type': 'text/calendar; charset=utf-8' }).end(text ?? '');
});
await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
const feedUrl = (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));
afterEach(() => {
  process.env.CAL_OUTBOUND_LOCAL = '1';
});

type Listed = {
  id: number;
  title: string;
  start_date: string;
  end_date: string;
  timezone: string;
  all_day: boolean;
};
const WINDOW = 'start_date=2027-01-01&end_date=2028-12-31&per_page=50';
const listed = async (query = '') =>
  (await api.get(`/events?${WINDOW}${query}`, asEditor)).body.events as Array<Listed & Record<string, any>>;
const brief = (e: Listed & Record<string, any>) =>
  `${e.start_date} ${e.end_date} ${e.timezone}${e.all_day ? ' all-day' : ''} ${e.title}`;
const importText = (calendar: string, query = '') =>
  api.call('POST', `/imports${query}`, {
    raw: calendar,
    headers: { 'content-type': 'text/calendar' },
    ...asEditor,
  });

describe('iCalendar imports', () => {
  it('answers anonymous callers 401 and authors 403', async () => {
    expect((await api.post('/imports', { url: feedUrl('/x.ics') })).status).toBe(401);
    expect((await api.get('/imports')).status).toBe(401);
    const author = await api.post('/imports', { url: feedUrl('/x.ics') }, { token: tokens.author });
    expect(author.status).toBe(403);
    expect((await api.get('/imports/1', { token: tokens.author })).status).toBe(403);
  });

  it('imports a Google Calendar feed, and re-syncs it: unchanged, updated, created, trashed', async () => {
    feeds.set('/google.ics', fixture('google'));
    const made = await api.post(
      '/imports',
      { url: feedUrl('/google.ics'), categories: ['Community'] },
      asEditor,
    );
    expect(made.status).toBe(201);
    expect(made.body.last_run).toMatchObject({
      created: 3,
      updated: 0,
      unchanged: 0,
      trashed: 0,
      skipped: [],
    });
    expect(made.body.events).toBe(3);
    const events = await listed(`&categories=community`);
    expect(events.map(brief)).toEqual([
      '2027-03-02 19:00:00 2027-03-02 20:00:00 America/New_York Evening yoga',
      '2027-03-09 19:00:00 2027-03-09 20:00:00 America/New_York Evening yoga',
      // The UTC DTSTART of Google's export, in its X-WR-TIMEZONE.
      '2027-03-10 18:00:00 2027-03-10 20:00:00 America/New_York Board meeting',
      // EXDATE 16 March; RECURRENCE-ID 23 March moved to the Wednesday.
      '2027-03-24 18:30:00 2027-03-24 19:30:00 America/New_York Evening yoga (Wednesday this week)',
      '2027-03-30 19:00:00 2027-03-30 20:00:00 America/New_York Evening yoga',
      '2027-04-06 19:00:00 2027-04-06 20:00:00 America/New_York Evening yoga',
      '2027-07-04 00:00:00 2027-07-04 23:59:59 America/New_York all-day Independence Day picnic',
    ]);
    const board = events.find((e) => e.title === 'Board meeting')!;
    expect(board.venue.venue).toBe('Springfield Town Hall');
    expect(board.description).toContain('listen in; questions');
    const yoga = events.filter((e) => e.title.startsWith('Evening yoga'));
    expect(new Set(yoga.map((e) => e.series_id)).size).toBe(1);
    expect(yoga[0]!.series_id).not.toBeNull();

    const again = await api.patch(`/imports/${made.body.id}`, {}, asEditor);
    expect(again.body.last_run).toMatchObject({ created: 0, updated: 0, unchanged: 3, trashed: 0 });

    const changed = fixture('google')
      .replace('SUMMARY:Board meeting', 'SUMMARY:Board meeting (spring)')
      .replace(/BEGIN:VEVENT\r?\nDTSTART;VALUE=DATE:20270704[\s\S]*?END:VEVENT\r?\n/, '')
      .replace(
        'END:VCALENDAR',
        'BEGIN:VEVENT\nUID:new-1@google.com\nDTSTART:20270901T160000Z\nDTEND:20270901T170000Z\nSUMMARY:Open day\nEND:VEVENT\nEND:VCALENDAR',
      );
    feeds.set('/google.ics', changed);
    const resync = await api.patch(`/imports/${made.body.id}`, {}, asEditor);
    expect(resync.body.last_run).toMatchObject({ created: 1, updated: 1, unchanged: 1, trashed: 1 });
    const after = (await listed('&categories=community')).map((e) => e.title);
    expect(after.filter((t) => t.startsWith('Board'))).toEqual(['Board meeting (spring)']);
    expect(after).toContain('Open day');
    expect(after).not.toContain('Independence Day picnic');
    expect(after.filter((t) => t.startsWith('Evening yoga'))).toHaveLength(5);
    expect((await api.get(`/imports/${made.body.id}`, asEditor)).body.events).toBe(3);
  });

  it('imports Outlook (Windows zone names, categories) and Apple (URL, all-day series) exports', async () => {
    const outlook = await api.post('/imports', { calendar: fixture('outlook') }, asEditor);
    expect(outlook.body.last_run).toMatchObject({ created: 2, skipped: [] });
    const apple = await importText(fixture('apple'), '?status=draft');
    expect(apple.status).toBe(201);
    expect(apple.body).toMatchObject({ source: 'calendar', status: 'draft', last_run: { created: 2 } });

    const reviews = await listed('&search=monthly');
    expect(reviews.map((e) => `${e.start_date} ${e.timezone}`)).toEqual(
      ['01-29', '02-26', '03-26', '04-30', '05-28', '06-25'].map((d) => `2027-${d} 18:00:00 Europe/Berlin`),
    );
    expect(reviews[0]!.categories.map((c: { name: string }) => c.name).sort()).toEqual(['Planning', 'Work']);
    const conference = (await listed('&search=conference'))[0]!;
    expect(brief(conference)).toMatch(
      /^2027-05-01 00:00:00 2027-05-02 23:59:59 .* all-day Spring conference$/,
    );

    const dentist = (await listed('&search=dentist&status=draft'))[0]!;
    expect(brief(dentist)).toBe('2027-04-15 10:00:00 2027-04-15 11:00:00 Europe/London Dentist');
    expect(dentist).toMatchObject({ website: 'https://example.org/smile-clinic', status: 'draft' });
    const camp = await listed('&search=camp&status=draft');
    expect(camp.map((e) => e.start_date.slice(0, 10))).toEqual([
      '2027-08-08',
      '2027-08-09',
      '2027-08-10',
      '2027-08-11',
      '2027-08-12',
    ]);
  });

  it('skips a VEVENT it cannot read and imports the rest; a feed that is not iCalendar is a 400 naming its line', async () => {
    const feed = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//test//EN',
      'BEGIN:VEVENT',
      'UID:no-start@test',
      'SUMMARY:No start',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:fine@test',
      'DTSTART:20270210T100000Z',
      'SUMMARY:Fine event',
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n');
    const made = await importText(feed);
    expect(made.status).toBe(201);
    expect(made.body.last_run.created).toBe(1);
    expect(made.body.last_run.skipped).toEqual([
      { line: 4, uid: 'no-start@test', reason: 'line 4: it has no DTSTART' },
    ]);

    const bad = await importText(feed.replace('SUMMARY:Fine event', 'SUMMARY Fine event'));
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('rest_invalid_param');
    expect(bad.body.data.params.calendar).toContain('line 11 ("SUMMARY Fine event")');
    const notIcs = await importText('<html>not a calendar</html>');
    expect(notIcs.status).toBe(400);
    expect(notIcs.body.data.params.calendar).toContain('line 1');
  });

  it('refuses private, loopback and metadata addresses and plain http when deployed', async () => {
    process.env.CAL_OUTBOUND_LOCAL = '0';
    for (const url of [
      feedUrl('/google.ics'),
      'https://127.0.0.1/a.ics',
      'https://10.1.2.3/a.ics',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/a.ics',
    ]) {
      const refused = await api.post('/imports', { url }, asEditor);
      expect(refused.status, url).toBe(400);
      expect(refused.body.data.details.url.code, url).toBe('rest_import_url_refused');
    }
  });

  it('re-syncs due imports (the timer and schedule job), and imports a file with npm run import -- ics', async () => {
    feeds.set('/due.ics', fixture('apple'));
    const made = await api.post(
      '/imports',
      { url: feedUrl('/due.ics'), resync_minutes: 5, status: 'draft' },
      asEditor,
    );
    expect(made.body.next_run_utc).not.toBeNull();
    feeds.set('/due.ics', fixture('apple').replace('SUMMARY:Dentist', 'SUMMARY:Dentist (moved)'));
    await loadEveryBodyPart();
    expect(await runDueImports(Date.now())).toBe(0);
    expect(await runDueImports(Date.now() + 6 * 60_000)).toBeGreaterThanOrEqual(1);
    const after = await api.get(`/imports/${made.body.id}`, asEditor);
    expect(after.body.last_run).toMatchObject({ updated: 1, unchanged: 1 });

    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    const file = new URL('../support/ics/outlook.ics', import.meta.url).pathname;
    await importCli(['ics', file, '--to', api.base, '--token', tokens.editor, '--status', 'pending']).finally(
      () => log.mockRestore(),
    );
    expect(lines.join('\n')).toMatch(
      /^Import \d+ \(.*\/imports\/\d+\): 2 created, 0 updated, 0 unchanged, 0 trashed, 0 skipped$/,
    );
  });

  it('runs the deployed re-sync job: runs that overlap fetch a due feed once, and it is due again after its interval', async () => {
    feeds.set('/overlap.ics', fixture('google'));
    const made = await api.post('/imports', { url: feedUrl('/overlap.ics'), resync_minutes: 5 }, asEditor);
    expect(made.status).toBe(201);
    expect(fetches.get('/overlap.ics')).toBe(1);
    const job = (await import('../../functions/jobs/resync-imports')).handler;
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 6 * 60_000);
      // As a schedule's next invocation while the last one still runs: both see the import due.
      const [a, b] = await Promise.all([job(), job()]);
      expect(a.ran + b.ran).toBeGreaterThanOrEqual(1);
      expect(fetches.get('/overlap.ics')).toBe(2);
      expect((await job()).ran).toBe(0);
      const after = await api.get(`/imports/${made.body.id}`, asEditor);
      expect(after.body.last_run).toMatchObject({ created: 0, unchanged: made.body.last_run.created });
      expect(Date.parse(after.body.next_run_utc)).toBeGreaterThan(Date.now() + 4 * 60_000);
      vi.setSystemTime(Date.now() + 6 * 60_000);
      await job();
      expect(fetches.get('/overlap.ics')).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it("imports this service's own /events/ical into an empty calendar as the same events", async () => {
    const source = await startSecondStack();
    try {
      const send = (path: string, body: object) =>
        fetch(`${source.base}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tokens.editor}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }).then(async (r) => ({ status: r.status, body: await r.json() }));
      const made = [
        await send('/events', {
          title: 'Round trip talk',
          start_date: '2027-10-05 18:00',
          end_date: '2027-10-05 19:30',
          timezone: 'Europe/Paris',
          venue: { venue: 'Salle Pleyel' },
          categories: ['Talks'],
        }),
        await send('/events', {
          title: 'Round trip fair',
          start_date: '2027-10-09',
          end_date: '2027-10-10',
          all_day: true,
          timezone: 'Europe/Paris',
        }),
        await send('/events', {
          title: 'Round trip choir',
          start_date: '2027-10-06 20:00',
          end_date: '2027-10-06 21:00',
          timezone: 'Europe/Paris',
          recurrence: ['RRULE:FREQ=WEEKLY;COUNT=4'],
        }),
      ];
      expect(made.map((m) => m.status)).toEqual([201, 201, 201]);
      const url = `${source.base}/events/ical?start_date=2027-10-01&end_date=2027-11-30`;
      const imported = await api.post('/imports', { url }, asEditor);
      expect(imported.body.last_run).toMatchObject({ created: 3, skipped: [] });
      const sourceList = await fetch(`${source.base}/events?start_date=2027-10-01&end_date=2027-11-30`);
      const sourceEvents = ((await sourceList.json()) as { events: Array<Listed & Record<string, any>> })
        .events;
      // A DATE carries no zone (RFC 5545): all-day events come in the feed's X-WR-TIMEZONE, the site's.
      const shape = (e: Listed & Record<string, any>) =>
        `${brief({ ...e, timezone: e.all_day ? '' : e.timezone })} | ${e.venue?.venue ?? ''} | ${(e.categories ?? []).map((c: { name: string }) => c.name).join(',')} | ${e.recurrence?.join(' ') ? 'series' : ''}`;
      const here = (await api.get('/events?start_date=2027-10-01&end_date=2027-11-30&search=round', asEditor))
        .body.events;
      expect(here.map(shape)).toEqual(sourceEvents.map(shape));
    } finally {
      await source.close();
    }
  });
});
