import { describe, expect, it } from 'vitest';
import { useStack } from '../support/use-stack';

// POST /imports with a text/csv body: the CLI's CSV columns through the API, each row all or nothing,
// bad rows reported by line and column, a bad header refused, a dry run that writes nothing. Issue 30.

const { api, tokens } = await useStack({ tokens: { editor: 'editor', author: 'author' } });
const asEditor = { token: tokens.editor };

const importCsv = (text: string, query = '', token = tokens.editor) =>
  api.call('POST', `/imports${query}`, { raw: text, headers: { 'content-type': 'text/csv' }, token });

const HEADER =
  'Event Name,Event Start Date,Event Start Time,Event End Date,Event End Time,Event Venue Name,Event Category,Event Website';

const titles = async (search: string) =>
  (
    (
      await api.get(
        `/events?search=${search}&start_date=2031-01-01&end_date=2031-12-31&status=publish,draft`,
        asEditor,
      )
    ).body.events as Array<{ title: string; status: string; categories: Array<{ name: string }> }>
  ).map(
    (e) =>
      `${e.title} ${e.status} ${e.categories
        .map((c) => c.name)
        .sort()
        .join('+')}`,
  );

describe('CSV imports over HTTP', () => {
  it('answers an author 403', async () => {
    const res = await importCsv(`${HEADER}\nNope,2031-01-01,,,,,,`, '', tokens.author);
    expect(res.status).toBe(403);
  });

  it('refuses a CSV without its name column with a 400 naming it, creating nothing', async () => {
    const before = (await api.get('/imports', asEditor)).body.imports.length;
    const res = await importCsv('Title,Event Start Date\nHeaderless,2031-02-01\n');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
    expect(res.body.data.params.csv).toMatch(/no "Event Name" column/);
    expect((await api.get('/imports', asEditor)).body.imports).toHaveLength(before);
  });

  it('a dry run reports every row and writes nothing', async () => {
    const before = (await api.get('/imports', asEditor)).body.imports.length;
    const res = await importCsv(
      [HEADER, 'Dryrun Fair,2031-03-01,10:00,,12:00,,,', 'Dryrun Bad,2031-02-31,,,,,,'].join('\n'),
      '?dry_run=true',
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ dry_run: true, source: 'csv', last_run: { created: 1 } });
    expect(res.body.last_run.skipped).toEqual([
      {
        line: 3,
        reason: 'line 3: column "Event Start Date": "2031-02-31" is not a date (YYYY-MM-DD or MM/DD/YYYY)',
      },
    ]);
    expect(await titles('Dryrun')).toEqual([]);
    expect((await api.get('/imports', asEditor)).body.imports).toHaveLength(before);
  });

  it('imports the rows, skips a bad one by line and column, and lists the import with its report', async () => {
    const res = await importCsv(
      [
        HEADER,
        'Csvrow Concert,2031-04-01,19:30,2031-04-01,21:00,Csvrow Hall,Music,',
        'Csvrow Broken,2031-04-02,25:00,,,,,',
        // The service refuses the website: the row's new venue is not created either.
        'Csvrow Refused,2031-04-03,19:00,,20:00,Csvrow Nowhere,,not a url',
        'Csvrow Market,2031-04-04,,,,,,',
      ].join('\r\n'),
      '?status=draft&categories=Imported',
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ source: 'csv', url: null, resync_minutes: null, events: 2 });
    const { created, skipped } = res.body.last_run;
    expect(created).toBe(2);
    expect(skipped.map((s: { line: number }) => s.line)).toEqual([3, 4]);
    expect(skipped[0].reason).toBe(
      'line 3: column "Event Start Time": "25:00" is not a time (HH:MM, HH:MM:SS or 7:30 pm)',
    );
    expect(skipped[1].reason).toMatch(/^line 4: rest_invalid_param: column "Event Website": /);

    expect((await titles('Csvrow')).sort()).toEqual([
      'Csvrow Concert draft Imported+Music',
      'Csvrow Market draft Imported',
    ]);
    expect(
      (await api.get('/venues?search=Csvrow', asEditor)).body.venues.map((v: { venue: string }) => v.venue),
    ).toEqual(['Csvrow Hall']);
    const listed = (await api.get('/imports', asEditor)).body.imports.find(
      (i: { id: number }) => i.id === res.body.id,
    );
    expect(listed.last_run).toEqual(res.body.last_run);
  });
});
