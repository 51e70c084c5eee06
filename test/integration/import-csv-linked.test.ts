import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../client/src';
import { importAnyCsv } from '../../import-export/src/csv-linked-import';
import { progress } from '../../import-export/src/progress';
import type { ImportState } from '../../import-export/src/state';
import { importClient } from '../../import-export/src/target';
import { useStack } from '../support/use-stack';

// Venue and organizer CSV files in the reference plugin's columns: the kind told by the first line,
// bad rows named by line and column, each row whole or not at all, nothing written twice. Issue 30.

const { api, tokens } = await useStack({ tokens: { admin: 'administrator' } });
const dir = mkdtempSync(join(tmpdir(), 'cal-csv-linked-'));

async function importFile(text: string, o: { state?: ImportState; dryRun?: boolean; type?: string } = {}) {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.csv`);
  writeFileSync(file, text);
  const state = o.state ?? { version: 1, source: 'csv', target: api.base, records: {} };
  const report = await importAnyCsv({
    file,
    type: o.type,
    api: importClient(api.base, tokens.admin),
    state,
    dryRun: o.dryRun ?? false,
    progress: progress(process.stderr, true),
    checkpoint: () => {},
  });
  return { report, state };
}

describe('venue and organizer CSV files', () => {
  it('imports venues, names bad rows by line and column, and writes nothing twice', async () => {
    const text = [
      'Venue Name,Venue Description,Venue Country,Venue Address,Venue Address 2,Venue City,Venue State/Province,Venue Zip,Venue Phone,Venue Website',
      'Harbour Hall,<p>By the sea.</p>,Norway,Kaia 1,Gate B,Bergen,Vestland,5003,+47 55,https://harbour.example.org',
      'Old Mill,,United States,1 Mill Rd,,Salem,OR,97301,,',
      ',,Norway,,,,,,,',
      'Bad Site,,,,,,,,,not a url',
    ].join('\r\n');

    const dry = await importFile(text, { dryRun: true });
    expect(dry.report.counts.venues).toMatchObject({ created: 3, skipped: 1 });
    expect((await api.client.listVenues({ query: { search: 'harbour' } })).data.venues).toEqual([]);

    const first = await importFile(text);
    expect(first.report.counts.venues).toMatchObject({ created: 2, skipped: 2 });
    expect(first.report.skipped[0]).toEqual({
      record: 'line 4',
      reason: 'column "Venue Name": a venue needs a name',
    });
    expect(first.report.skipped[1]!.reason).toMatch(/^400 rest_invalid_param: .*\(column "Venue Website": /);
    // The refused row left no venue behind.
    expect((await api.client.listVenues({ query: { search: 'Bad Site' } })).data.venues).toEqual([]);

    const { data: harbour } = await api.client.getVenueBySlug({ path: { slug: 'harbour-hall' } });
    expect(harbour).toMatchObject({
      venue: 'Harbour Hall',
      address: 'Kaia 1, Gate B',
      city: 'Bergen',
      country: 'Norway',
      province: 'Vestland',
      zip: '5003',
      phone: '+47 55',
      website: 'https://harbour.example.org',
    });
    const { data: mill } = await api.client.getVenueBySlug({ path: { slug: 'old-mill' } });
    expect([mill.state, mill.province ?? '']).toEqual(['OR', '']);

    const again = await importFile(text, { state: first.state });
    expect(again.report.counts.venues).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
    // Without the state file each venue is found again by its name.
    const lost = await importFile(text);
    expect(lost.report.counts.venues).toMatchObject({ created: 0, updated: 2 });
  }, 120_000);

  it('imports organizers, keeps the slug column, and takes --type over the header', async () => {
    const text = [
      'Organizer Name,Organizer Email,Organizer Phone,Organizer Website,Organizer Slug,Organizer Status',
      'Folk Society,folk@example.org,+1 555,https://folk.example.org,the-folk,draft',
      'Choir,,,,,maybe',
    ].join('\n');
    const { report, state } = await importFile(text);
    expect(report.counts.organizers).toMatchObject({ created: 1, skipped: 1 });
    expect(report.skipped).toEqual([
      {
        record: 'line 3',
        reason: 'column "Organizer Status": "maybe" is not one of publish, future, draft, pending, private',
      },
    ]);
    const admin = createClient({ baseUrl: api.base, token: tokens.admin });
    const { data: folk } = await admin.getOrganizerBySlug({ path: { slug: 'the-folk' } });
    expect(folk).toMatchObject({ organizer: 'Folk Society', email: 'folk@example.org', status: 'draft' });

    // Changed at the source: an update, found by its slug.
    const changed = await importFile(text.replace('+1 555', '+1 556'), { state });
    expect(changed.report.counts.organizers).toMatchObject({ created: 0, updated: 1 });

    await expect(importFile(text, { type: 'venues' })).rejects.toThrow(/no "Venue Name" column/);
    await expect(importFile('Name,City\nX,Y\n')).rejects.toThrow(
      /names no Event Name, Venue Name, Organizer Name column/,
    );
  }, 120_000);
});
