import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../client/src';
import { progress } from '../../import-export/src/progress';
import { importSite } from '../../import-export/src/site-import';
import { ImportError, openSite, type SourceAuth } from '../../import-export/src/site-source';
import type { ImportState } from '../../import-export/src/state';
import { importClient } from '../../import-export/src/target';
import { anEvent } from '../support/bodies';
import { expectImported, readAll } from '../support/import-compare';
import { type ReplaySite, startReplaySite } from '../support/replay-site';
import { startSecondStack } from '../support/second-stack';
import { recordRequests } from '../support/sent-requests';
import { useStack } from '../support/use-stack';

// Importing a whole site: from a replay of the reference plugin's own answers, and from another
// calendar of this service (it speaks the same API). Issue 30.

const { api, tokens } = await useStack({ tokens: { admin: 'administrator' } });

const newState = (source: string, target: string): ImportState => ({
  version: 1,
  source,
  target,
  records: {},
});

async function run(given: string, auth: SourceAuth, state: ImportState) {
  const source = await openSite(given, auth, true);
  const report = await importSite({
    source,
    api: importClient(api.base, tokens.admin),
    state,
    dryRun: false,
    progress: progress(process.stderr, true),
    checkpoint: () => {},
  });
  return { source, report };
}

const total = (report: { counts: Record<string, Record<string, number>> }, outcome: string) =>
  Object.values(report.counts).reduce((n, c) => n + (c[outcome] ?? 0), 0);

describe('from a site running the reference plugin (replayed)', () => {
  let site: ReplaySite;
  beforeAll(async () => {
    site = await startReplaySite();
  });
  afterAll(() => site?.close());

  it('imports every record its lists show, links and hierarchy included, then nothing twice', async () => {
    const auth = { user: site.user, appPassword: site.appPassword };
    const state = newState(`${site.origin}/wp-json/tribe/events/v1`, api.base);
    const requests = recordRequests(api.base);
    const first = await run(site.origin, auth, state).finally(requests.stop);
    // The target was empty: its events were listed once (to find copies without the state file), not
    // looked for one by one. (Issue 40 dropped the per-event origin tags this test counted before.)
    expect(requests.sent.filter((r) => r.startsWith('GET /events?')).length).toBeLessThanOrEqual(2);
    expect(requests.sent.filter((r) => r.startsWith('POST /events')).length).toBeGreaterThan(0);
    expect(first.source.namespace).toBe('tribe/events/v1');
    expect(first.report.skipped).toEqual([]);
    // Paging: the events came in pages of 50 at most, asked for by number (not by the plugin's links).
    expect(
      site.requests.some((r) => r.startsWith('/wp-json/tribe/events/v1/events?per_page=50&page=1')),
    ).toBe(true);
    expect(site.requests.filter((r) => /status=any|1970-01-01/.test(r))).toEqual([]);

    // What the reference's lists show an administrator: every status, no event hidden from listings.
    const listed = await readAll(first.source);
    expect(listed.events.map((e) => e.id).sort()).toEqual(
      site.records.events
        .filter((e) => !e.hide_from_listings)
        .map((e) => e.id)
        .sort(),
    );
    expect(new Set(listed.events.map((e) => e.status))).toEqual(new Set(['publish', 'draft', 'pending']));
    expect(first.report.counts.events!.created, JSON.stringify(first.report)).toBe(listed.events.length);
    expect(first.report.counts.categories!.created).toBe(site.records.categories.length);
    const client = createClient({ baseUrl: api.base, token: tokens.admin });
    await expectImported(listed, client, state);

    const again = await run(site.origin, auth, state);
    expect(total(again.report, 'created')).toBe(0);
    expect(total(again.report, 'updated')).toBe(0);

    // The state file lost: every record is found again at the target (by its slug and name).
    const lost = await run(site.origin, auth, newState(state.source, state.target));
    expect(total(lost.report, 'created'), JSON.stringify(lost.report.counts)).toBe(0);
    expect(lost.report.skipped).toEqual([]);
  }, 300_000);

  it('reads published records only without credentials', async () => {
    const source = await openSite(`${site.origin}/wp-json/tribe/events/v1`, {}, true);
    expect(source.authenticated).toBe(false);
    const statuses = new Set<string>();
    for await (const page of source.pages('events'))
      for (const e of page.records) statuses.add(String(e.status));
    expect([...statuses]).toEqual(['publish']);
  });

  it('says in one line what is wrong: credentials, a site without the API, an unreachable site', async () => {
    await expect(openSite(site.origin, { user: site.user, appPassword: 'wrong' }, true)).rejects.toThrow(
      /^The site refused the credentials \(401 incorrect_password\): check --user and --app-password/,
    );
    await expect(openSite(`${site.origin}/blog`, {}, true)).rejects.toThrow(/^No events API at /);
    const closed = await startReplaySite();
    await closed.close();
    await expect(openSite(closed.origin, {}, true)).rejects.toThrow(
      /^Cannot reach http:\/\/127\.0\.0\.1:\d+ /,
    );
    await expect(openSite('http://10.0.0.1', {}, true)).rejects.toBeInstanceOf(ImportError);
  });
});

describe('from another calendar of this service', () => {
  let other: Awaited<ReturnType<typeof startSecondStack>>;
  beforeAll(async () => {
    other = await startSecondStack();
  });
  afterAll(() => other?.close());

  /** Everything the source lists to an administrator, as the importer reads it. */
  const sourceRecords = async () => readAll(await openSite(other.base, { token: tokens.admin }, true));

  it('imports, follows the changes of the source on the next run, and creates nothing twice', async () => {
    const src = createClient({ baseUrl: other.base, token: tokens.admin });
    const { data: music } = await src.createCategory({ body: { name: 'Music', description: 'Live' } });
    const { data: jazz } = await src.createCategory({ body: { name: 'Jazz', parent: music.id } });
    const { data: outdoor } = await src.createTag({ body: { name: 'Outdoor' } });
    const { data: hall } = await src.createVenue({
      body: {
        venue: 'Town Hall',
        address: '1 Main St',
        city: 'Oslo',
        country: 'Norway',
        zip: '0150',
        phone: '+47 1',
        website: 'https://hall.example.org',
        geo_lat: 59.91,
        geo_lng: 10.75,
      },
    });
    const { data: org } = await src.createOrganizer({
      body: { organizer: 'Jazz Club', email: 'jazz@example.org' },
    });
    const { data: gig } = await src.createEvent({
      body: anEvent({
        title: 'Late Set',
        timezone: 'Europe/Oslo',
        cost: '€15',
        featured: true,
        categories: [jazz.id],
        tags: [outdoor.id],
        venue: hall.id,
        organizer: [org.id],
        website: 'https://tickets.example.org/late',
        image: 'https://img.example.org/late.png',
        description: '<p>Doors at <strong>eight</strong>.</p>',
      }),
    });
    await src.createEvent({
      body: anEvent({
        title: 'Fair',
        all_day: true,
        start_date: '2030-07-01',
        end_date: '2030-07-03',
        sticky: true,
      }),
    });
    await src.createEvent({ body: anEvent({ title: 'Plans', status: 'draft', excerpt: 'Soon.' }) });

    const state = newState(other.base, api.base);
    const first = await run(other.base, { token: tokens.admin }, state);
    expect(first.report.skipped).toEqual([]);
    expect(first.report.counts.events).toMatchObject({ created: 3 });
    const client = createClient({ baseUrl: api.base, token: tokens.admin });
    await expectImported(await sourceRecords(), client, state);

    // Changes at the source: an event moved and renamed, a venue's phone cleared, a new tag, a new event.
    await src.updateEvent({
      path: { id: gig.id },
      body: {
        title: 'Later Set',
        start_date: '2030-06-02 21:00:00',
        end_date: '2030-06-02 23:00:00',
        featured: false,
      },
    });
    await src.updateVenue({ path: { id: hall.id }, body: { phone: '' } });
    await src.createEvent({ body: anEvent({ title: 'Encore', tags: ['Brand New'] }) });

    const second = await run(other.base, { token: tokens.admin }, state);
    expect(second.report.skipped).toEqual([]);
    expect(second.report.counts.events).toMatchObject({ created: 1, updated: 1, unchanged: 2 });
    expect(second.report.counts.venues).toMatchObject({ created: 0, updated: 1 });
    expect(second.report.counts.tags).toMatchObject({ created: 1, updated: 0 });
    await expectImported(await sourceRecords(), client, state);

    const third = await run(other.base, { token: tokens.admin }, state);
    expect(total(third.report, 'created') + total(third.report, 'updated')).toBe(0);
  }, 300_000);
});
