import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../client/src';
import { importCsv } from '../../import-export/src/csv-import';
import { importLinkedCsv } from '../../import-export/src/csv-linked-import';
import { allEvents, csv, ics, jsonl } from '../../import-export/src/export';
import { progress } from '../../import-export/src/progress';
import type { ImportState } from '../../import-export/src/state';
import { importClient } from '../../import-export/src/target';
import { anEvent } from '../support/bodies';
import { everyList } from '../support/import-compare';
import { startSecondStack } from '../support/second-stack';
import { recordRequests } from '../support/sent-requests';
import { useStack } from '../support/use-stack';

// CSV in the reference plugin's columns, and the export: a calendar exported, imported into an empty
// one, gives the same events; bad rows are named by line and column. Issue 30.

const { api, tokens } = await useStack({ tokens: { admin: 'administrator' } });
const dir = mkdtempSync(join(tmpdir(), 'cal-csv-'));

const newState = (): ImportState => ({ version: 1, source: 'csv', target: api.base, records: {} });

async function importFile(
  text: string,
  state = newState(),
  dryRun = false,
  kind: 'events' | 'venues' | 'organizers' = 'events',
) {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.csv`);
  writeFileSync(file, text);
  const run = kind === 'events' ? importCsv : importLinkedCsv.bind(null, kind);
  const report = await run({
    file,
    api: importClient(api.base, tokens.admin),
    state,
    dryRun,
    progress: progress(process.stderr, true),
    checkpoint: () => {},
  });
  return { report, state };
}

const collect = async (chunks: AsyncGenerator<string>) => {
  let out = '';
  for await (const c of chunks) out += c;
  return out;
};

describe('export and import again', () => {
  let other: Awaited<ReturnType<typeof startSecondStack>>;
  beforeAll(async () => {
    other = await startSecondStack();
  });
  afterAll(() => other?.close());

  it('exports the whole calendar as CSV that imports into an empty calendar as the same lists', async () => {
    const src = createClient({ baseUrl: other.base, token: tokens.admin });
    const { data: music } = await src.createCategory({ body: { name: 'Music' } });
    const { data: hall } = await src.createVenue({
      body: {
        venue: 'Town Hall',
        city: 'Oslo',
        country: 'Norway',
        province: 'Oslo',
        address: 'Karl Johans gate 1',
        phone: '+47 1',
        website: 'https://hall.example.org',
        geo_lat: 59.91,
        geo_lng: 10.75,
        show_map: false,
      },
    });
    await src.createVenue({
      body: { venue: 'Barn', country: 'United States', state: 'VT', status: 'draft' },
    });
    const { data: a } = await src.createOrganizer({
      body: { organizer: 'Jazz Club', email: 'jazz@example.org', phone: '+47 2' },
    });
    const { data: b } = await src.createOrganizer({ body: { organizer: 'City' } });
    await src.createEvent({
      body: anEvent({
        title: 'Late Set, "live"',
        description: '<p>Doors at eight,\nbar open.</p>',
        excerpt: 'Jazz, late.',
        timezone: 'Europe/Oslo',
        cost: '€15',
        featured: true,
        show_map: true,
        categories: [music.id, 'Jazz'],
        tags: ['Outdoor', 'Late'],
        venue: hall.id,
        organizer: [a.id, b.id],
        website: 'https://tickets.example.org/late',
        image: 'https://img.example.org/late.png',
      }),
    });
    await src.createEvent({
      body: anEvent({
        title: 'Fair',
        all_day: true,
        start_date: '2030-07-01',
        end_date: '2030-07-03',
        sticky: true,
        // Exported with position "postfix", which the import reads (issue 39).
        cost: '15 €',
      }),
    });
    await src.createEvent({
      body: anEvent({
        title: 'Plans',
        status: 'draft',
        start_date: '2019-03-01 09:30:00',
        end_date: '2019-03-01 10:00:00',
        timezone: 'America/New_York',
        cost: 'CHF 20',
      }),
    });
    // Hidden from listings: no list shows it unless asked, and the export asks.
    await src.createEvent({ body: anEvent({ title: 'Private Rehearsal', hide_from_listings: true }) });
    await src.createEvent({
      body: anEvent({
        title: 'Cheap',
        cost: '5 - 10',
        start_date: '2031-12-31 22:00:00',
        end_date: '2032-01-01 02:00:00',
      }),
    });

    const source = importClient(other.base, tokens.admin);
    // Venues and organizers first, so that the events' names find them with every field.
    for (const kind of ['venues', 'organizers'] as const) {
      const { report } = await importFile(await collect(csv(source, kind)), newState(), false, kind);
      expect(report.skipped).toEqual([]);
      expect(report.counts[kind]).toMatchObject({ created: 2 });
    }
    const text = await collect(csv(source));
    const first = await importFile(text);
    expect(first.report.skipped).toEqual([]);
    expect(first.report.counts.events).toMatchObject({ created: 5 });

    const target = importClient(api.base, tokens.admin);
    const [copied, original] = await Promise.all([everyList(target), everyList(source)]);
    expect(original.events.map((e) => e.title)).toContain('Private Rehearsal');
    // Listing them is for editing roles.
    await expect(
      createClient({ baseUrl: other.base }).listEvents({ query: { hide_from_listings: true } }),
    ).rejects.toMatchObject({ status: 400, code: 'rest_invalid_param' });
    expect(copied).toEqual(original);
    // The currency before or after the amount comes back on the same side (issue 39).
    const costs = async (c: typeof src) =>
      (
        await c.listEvents({
          query: {
            start_date: '1970-01-01',
            end_date: '2199-12-31',
            status: ['publish', 'draft'],
            per_page: 50,
          },
        })
      ).data.events
        .map((e) => [e.title, e.cost, e.cost_details])
        .sort();
    const sourceCosts = await costs(src);
    expect(sourceCosts).toEqual(
      expect.arrayContaining([
        [
          'Fair',
          '15€',
          { currency_symbol: '€', currency_code: '', currency_position: 'postfix', values: ['15'] },
        ],
        [
          'Plans',
          'CHF20',
          { currency_symbol: 'CHF', currency_code: '', currency_position: 'prefix', values: ['20'] },
        ],
      ]),
    );
    expect(await costs(createClient({ baseUrl: api.base, token: tokens.admin }))).toEqual(sourceCosts);
    let exported = 0;
    for await (const _ of allEvents(source)) exported++;
    expect(exported).toBe(5);

    // Again, with the state and without it: nothing is written.
    const again = await importFile(text, first.state);
    expect(again.report.counts.events).toMatchObject({ created: 0, updated: 0, unchanged: 5 });
    const lost = await importFile(text);
    expect(lost.report.counts.events).toMatchObject({ created: 0 });

    // The target's own export holds the same CSV rows.
    expect((await collect(csv(target))).split('\n').sort()).toEqual(text.split('\n').sort());

    const lines = (await collect(jsonl(source)))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { collection: string });
    const per = (c: string) => lines.filter((l) => l.collection === c).length;
    expect([per('categories'), per('tags'), per('venues'), per('organizers'), per('events')]).toEqual([
      2, 2, 2, 2, 5,
    ]);

    const calendar = await collect(ics(source));
    expect(calendar.match(/^BEGIN:VEVENT\r$/gm)?.length).toBe(5);
    expect(calendar).toContain('SUMMARY:Private Rehearsal');
    expect(calendar).toMatch(/^BEGIN:VCALENDAR\r\n/);
    expect(calendar).toMatch(/^BEGIN:VTIMEZONE\r$/m);
    expect(calendar.endsWith('END:VCALENDAR\r\n')).toBe(true);
  }, 300_000);
});

describe('rows in the reference plugin columns', () => {
  const HEADER =
    'Event Name,Event Start Date,Event Start Time,Event End Date,Event End Time,All Day Event,Event Venue Name,Event Organizer Name,Event Cost,Event Currency Symbol,Event Currency Position,Event Category,Event Tags';

  it('imports the good rows, names each bad one by line and column, and a dry run writes nothing', async () => {
    const text = [
      HEADER,
      'Quiz Night,2030-05-01,7:30 pm,2030-05-01,10:00 pm,,Pub,"Quiz Club, Town",5,$,prefix,Games,"Fun, Evening"',
      'Broken Date,2030-02-31,19:00,,,,,,,,,,',
      'Bad Flag,2030-05-02,19:00,,,maybe,,,,,,,',
      'Market,05/03/2030,,,,,,,,,,,',
      'Euro Night,2030-05-04,20:00,,21:00,,,,12,€,suffix,,',
    ].join('\r\n');

    const dry = await importFile(text, newState(), true);
    expect(dry.report.counts.events).toMatchObject({ created: 3, skipped: 2 });
    const { data: none } = await api.client.listEvents({ query: { search: 'quiz' } });
    expect(none.events).toEqual([]);

    const { report } = await importFile(text);
    expect(report.skipped).toEqual([
      {
        record: 'line 3',
        reason: 'column "Event Start Date": "2030-02-31" is not a date (YYYY-MM-DD or MM/DD/YYYY)',
      },
      {
        record: 'line 4',
        reason: 'column "All Day Event": "maybe" is not a yes or no (1/0, yes/no, true/false)',
      },
    ]);
    expect(report.counts.events).toMatchObject({ created: 3, skipped: 2 });

    const read = async (search: string) =>
      (await api.client.listEvents({ query: { search, start_date: '2030-01-01', end_date: '2030-12-31' } }))
        .data.events[0]!;
    const quiz = await read('quiz');
    expect([quiz.start_date, quiz.end_date, quiz.all_day, quiz.cost]).toEqual([
      '2030-05-01 19:30:00',
      '2030-05-01 22:00:00',
      false,
      '$5',
    ]);
    expect((quiz.organizer as unknown as Array<{ organizer: string }>).map((o) => o.organizer)).toEqual([
      'Quiz Club',
      'Town',
    ]);
    expect((quiz.venue as unknown as { venue: string }).venue).toBe('Pub');
    expect((quiz.tags as Array<{ name: string }>).map((t) => t.name).sort()).toEqual(['Evening', 'Fun']);
    const market = await read('market');
    expect([market.start_date.slice(0, 10), market.all_day]).toEqual(['2030-05-03', true]);
    expect((await read('euro')).cost).toBe('12€');
  }, 120_000);

  it('finds rows without a slug again by name and start when the state is lost, a window of rows at a time', async () => {
    // Days with more events than one row's lookup should list, listed or hidden from listings.
    const busyDays = ['2031-04-03', '2031-04-05'];
    await Promise.all(
      busyDays.flatMap((day, d) =>
        Array.from({ length: 51 }, (_, i) =>
          importClient(api.base, tokens.admin).createEvent({
            body: anEvent({
              title: `Busy ${i}`,
              start_date: `${day} 08:00:00`,
              end_date: `${day} 09:00:00`,
              hide_from_listings: d === 1,
            }),
          }),
        ),
      ),
    );
    const text = [
      `${HEADER},Hide Event From Event Listings,Event Status`,
      'Lost Talk,2031-03-01,18:00,,19:00,,,,,,,,,,',
      'Lost Hidden,2031-03-02,18:00,,19:00,,,,,,,,,1,',
      'Lost Draft,2031-03-02,20:00,,21:00,,,,,,,,,,draft',
      'Lost Fair,2031-03-02,,,,1,,,,,,,,,',
      'Lost Sunday,2031-03-09,10:00,,11:00,,,,,,,,,,',
    ].join('\n');
    const requests = recordRequests(api.base);
    const lists = () => requests.sent.splice(0).filter((r) => r.startsWith('GET /events?'));
    const ids = (r: Awaited<ReturnType<typeof importFile>>) =>
      Object.fromEntries(Object.entries(r.state.records).map(([k, x]) => [k, x.id]));
    try {
      const first = await importFile(text);
      expect(first.report.counts.events).toMatchObject({ created: 5, skipped: 0 });
      // One window of rows: its days listed once (listed events, then hidden ones), no search per row.
      expect(lists()).toHaveLength(2);
      const lost = await importFile(text);
      expect(lists().some((r) => r.includes('search='))).toBe(false);
      expect(lost.report.counts.events).toMatchObject({ created: 0, updated: 5 });
      expect(ids(lost)).toEqual(ids(first));

      for (const day of busyDays) {
        const busy = `${HEADER}\nLost Busy,${day},08:00,,09:00,,,,,,,,`;
        const busyFirst = await importFile(busy);
        lists();
        const busyLost = await importFile(busy);
        // Its day holds more events than a window of one row should list: searched for by itself.
        expect(
          lists().some((r) => r.includes('search=Lost')),
          day,
        ).toBe(true);
        expect(busyLost.report.counts.events).toMatchObject({ created: 0, updated: 1 });
        expect(ids(busyLost)).toEqual(ids(busyFirst));
      }
    } finally {
      requests.stop();
    }
  }, 120_000);

  it('refuses a row the API refuses, naming the column, and keeps nothing of it', async () => {
    const { report } = await importFile(
      [
        HEADER + ',Event Website',
        'Bad Site,2030-06-01,19:00,,20:00,,New Venue Nobody Has,,,,,,,not a url',
      ].join('\n'),
    );
    expect(report.skipped).toHaveLength(1);
    expect(report.skipped[0]!.reason).toMatch(/^400 rest_invalid_param: .*\(column "Event Website": /);
    // All or nothing: the inline venue of the refused row was not created either.
    const { data } = await api.client.listVenues({ query: { search: 'Nobody' } });
    expect(data.venues).toEqual([]);
  }, 120_000);
});
