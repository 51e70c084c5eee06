import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadEveryBodyPart } from '../../shared/http/lazy-parts';
import { runDueImports } from '../../shared/services/imports';
import { useStack } from '../support/use-stack';

/**
 * A feed import that does not fit in its request's time (issue 38): the request does what fits, answers
 * 202 with the import's progress and Location, and the re-sync job finishes it; nothing is made twice.
 * The function's time is made small through the local runtime's test setting for it.
 */

const { api, tokens } = await useStack({ tokens: { editor: 'editor' } });
const asEditor = { token: tokens.editor };

const feeds = new Map<string, string>();
let fetches = 0;
const server = createServer((req, res) => {
  fetches++;
  const text = feeds.get(req.url ?? '');
  res.writeHead(text ? 200 : 404, { 'content-type': 'text/calendar' }).end(text ?? '');
});
await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
const feedUrl = (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

const usualTimeout = process.env.CAL_LOCAL_FUNCTION_TIMEOUT_MS;
afterEach(() => {
  process.env.CAL_LOCAL_FUNCTION_TIMEOUT_MS = usualTimeout;
});

/** A feed of `n` one-hour events, one a day from 2027-01-01, titled by their number. */
function bigFeed(n: number, prefix: string): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//big//EN'];
  for (let i = 0; i < n; i++) {
    const day = new Date(Date.UTC(2027, 0, 1 + i)).toISOString().slice(0, 10).replaceAll('-', '');
    lines.push(
      'BEGIN:VEVENT',
      `UID:${prefix}-${i}@test`,
      `DTSTART:${day}T100000Z`,
      `DTEND:${day}T110000Z`,
      `SUMMARY:${prefix} ${i}`,
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return lines.join('\r\n');
}

/** The titles of the category's events, every page. */
async function titles(category: string): Promise<string[]> {
  const found: string[] = [];
  for (let page = 1; ; page++) {
    const r = await api.get(
      `/events?start_date=2027-01-01&end_date=2029-12-31&per_page=50&page=${page}&categories=${category}`,
      asEditor,
    );
    if (r.status === 404) break;
    found.push(...(r.body.events as Array<{ title: string }>).map((e) => e.title));
    if (page >= r.body.total_pages) break;
  }
  return found;
}

describe('an import larger than its request’s time', () => {
  it('answers 202 with its progress, is finished by the job, and a retry makes nothing twice', async () => {
    // Two requests of 5 s of function time (about 3 s of writes each) and a job run of 1 s: fewer than
    // 600 events unless writes go faster than 85 a second (a CI machine did about 30). A feed the requests
    // and that job run could finish between them would leave no time-out to report.
    const N = 600;
    feeds.set('/big.ics', bigFeed(N, 'Big'));
    process.env.CAL_LOCAL_FUNCTION_TIMEOUT_MS = '5000';
    const first = await api.post('/imports', { url: feedUrl('/big.ics'), categories: ['Big'] }, asEditor);
    expect(first.status).toBe(202);
    expect(first.headers.get('location')).toBe(first.body.rest_url);
    const { done, total } = first.body.progress;
    expect(total).toBe(N);
    // On a loaded machine the first write alone can take the whole budget: none done is an answer too.
    expect(done).toBeLessThan(N);
    expect(first.body.last_run.created).toBe(done);
    expect(first.body.next_run_utc).not.toBeNull();

    // A retry of the same import (as a client that saw no answer would PATCH it) goes on from there.
    // A change while that run goes on is a 409 that says so; nothing is changed.
    // The run holds the import before it fetches the feed: once the feed is asked for, it is held (a
    // fixed pause raced the hold on a loaded machine).
    const before = fetches;
    const running = api.patch(`/imports/${first.body.id}`, {}, asEditor);
    while (fetches === before) await new Promise((ok) => setTimeout(ok, 20));
    const meanwhile = await api.patch(`/imports/${first.body.id}`, { status: 'draft' }, asEditor);
    expect(meanwhile.status).toBe(409);
    expect(meanwhile.body).toMatchObject({ code: 'rest_import_running', data: { import_id: first.body.id } });
    const again = await running;
    expect(again.body.status).toBe('publish');
    expect(again.status).toBe(202);
    expect(again.body.progress.done).toBeGreaterThanOrEqual(done);
    expect(again.body.last_run.created).toBe(again.body.progress.done);
    expect(again.body.last_run.unchanged).toBe(0);

    // A job run that runs out of time too says so in the report and is backed off 15 minutes.
    process.env.CAL_LOCAL_FUNCTION_TIMEOUT_MS = usualTimeout;
    await loadEveryBodyPart();
    expect(await runDueImports(Date.now(), () => {}, Date.now() + 1000)).toBe(1);
    const short = (await api.get(`/imports/${first.body.id}`, asEditor)).body;
    expect(short.last_run.error).toMatch(
      /^timed_out: the run stopped at its time limit after \d+ of 600 \(1 in a row\)/,
    );
    expect(short.progress.done).toBeGreaterThanOrEqual(again.body.progress.done);
    expect(Date.parse(short.next_run_utc)).toBeGreaterThan(Date.now() + 14 * 60_000);
    expect(await runDueImports(Date.now())).toBe(0);

    // The job (no such limit here) finishes it once it is due again.
    expect(await runDueImports(Date.now() + 16 * 60_000)).toBeGreaterThanOrEqual(1);
    const after = await api.get(`/imports/${first.body.id}`, asEditor);
    expect(after.body).toMatchObject({ progress: null, events: N, next_run_utc: null });
    expect(after.body.last_run).toMatchObject({ created: N, updated: 0, unchanged: 0, skipped: [] });
    expect(after.body.last_run.finished_utc).toBeDefined();
    expect(after.body.last_run.error).toBeUndefined();
    const made = await titles('big');
    expect(made).toHaveLength(N);
    expect(new Set(made).size).toBe(N);
    // Nothing is left for the job.
    expect(await runDueImports(Date.now() + 60 * 60_000)).toBe(0);
  }, 180_000);

  it('answers 202 when the feed does not come in the request’s time, and the job fetches it', async () => {
    let stalled = true;
    const slow = createServer((req, res) => {
      const send = () => res.writeHead(200, { 'content-type': 'text/calendar' }).end(bigFeed(3, 'Slow'));
      if (stalled) setTimeout(send, 5000);
      else send();
    });
    await new Promise<void>((ok) => slow.listen(0, '127.0.0.1', ok));
    try {
      const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/slow.ics`;
      process.env.CAL_LOCAL_FUNCTION_TIMEOUT_MS = '3000';
      const started = Date.now();
      const first = await api.post('/imports', { url, categories: ['Slow'] }, asEditor);
      expect(Date.now() - started).toBeLessThan(3000);
      expect(first.status).toBe(202);
      expect(first.body.progress).toEqual({ done: 0, total: null });
      stalled = false;
      process.env.CAL_LOCAL_FUNCTION_TIMEOUT_MS = usualTimeout;
      await loadEveryBodyPart();
      expect(await runDueImports(Date.now())).toBeGreaterThanOrEqual(1);
      const after = await api.get(`/imports/${first.body.id}`, asEditor);
      expect(after.body).toMatchObject({ progress: null, events: 3, last_run: { created: 3 } });
      expect(await titles('slow')).toHaveLength(3);
    } finally {
      await new Promise<void>((ok) => slow.close(() => ok()));
    }
  }, 60_000);

  it('takes an Idempotency-Key: the same key twice makes one import, 202 or 201 (issue 43)', async () => {
    const count = async () => (await api.get('/imports', asEditor)).body.imports.length as number;
    const before = await count();
    feeds.set('/keyed.ics', bigFeed(400, 'Keyed'));
    process.env.CAL_LOCAL_FUNCTION_TIMEOUT_MS = '5000';
    const keyed = { ...asEditor, headers: { 'idempotency-key': 'import-key-1' } };
    const body = { url: feedUrl('/keyed.ics'), categories: ['Keyed'] };
    const first = await api.post('/imports', body, keyed);
    expect(first.status).toBe(202);
    const again = await api.post('/imports', body, keyed);
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    expect(await count()).toBe(before + 1);
    // Another body with the key is refused; nothing is made.
    const other = await api.post('/imports', { ...body, categories: ['Other'] }, keyed);
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('rest_idempotency_key_reused');

    process.env.CAL_LOCAL_FUNCTION_TIMEOUT_MS = usualTimeout;
    const text = bigFeed(2, 'Keytext');
    const textKey = { ...asEditor, headers: { 'idempotency-key': 'import-key-2' } };
    const made = await api.post('/imports', { calendar: text, categories: ['Keytext'] }, textKey);
    expect(made.status).toBe(201);
    const replay = await api.post('/imports', { calendar: text, categories: ['Keytext'] }, textKey);
    expect(replay).toMatchObject({ status: 201, body: { id: made.body.id } });
    expect(await count()).toBe(before + 2);
    expect(await titles('keytext')).toHaveLength(2);
  }, 120_000);
});
