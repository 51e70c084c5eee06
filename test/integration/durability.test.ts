import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalStack, localStacks } from '../support/local-stacks';
import { answers, isAlive, waitUntil } from '../support/processes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Durability of the local stack (`npm start`, data on disk): a burst of writes, the whole stack killed
 * outright (SIGKILL to its process group: node and DynamoDB Local's Java alike, as a power cut would)
 * in the middle of it, a restart on the same data directory, and then every write the stack
 * acknowledged is there and whole: created events with their inline terms, updates with the value
 * acknowledged last (or the one in flight at the kill), permanent deletes gone. Then a clean stop
 * (SIGTERM) leaves no process behind.
 */
const WORKERS = 6;
/** Each worker's chain: create, update, update, and every third record deleted for good. */
const KILL_AFTER_ACKS = 60;

const dataDir = mkdtempSync(join(tmpdir(), 'cal-durability-'));
const stacks = localStacks(dataDir);

afterAll(() => {
  stacks.cleanup();
  rmSync(dataDir, { recursive: true, force: true });
});

type Started = LocalStack;

/** `npm start` on the shared data directory (persisted, not in memory), in its own process group. */
async function start(): Promise<Started> {
  const s = await stacks.start({ role: 'editor', subject: 'user-durable' });
  expect(s.output()).toContain(`data in ${dataDir}/`);
  return s;
}

type Json = Record<string, any>;

const call = (s: Started, method: string, path: string, body?: unknown) => s.call(method, path, body);

/** What the stack acknowledged, and what was in flight when it died (it may or may not have landed). */
interface Record_ {
  id: number;
  title: string;
  category: string;
  /** Excerpts acknowledged, in order; the last is what the record must hold. */
  excerpts: string[];
  inFlightExcerpt?: string;
  deleted: boolean;
  deleteInFlight: boolean;
}

const acked: Record_[] = [];
let acks = 0;
let killed = false;
let first: Started;

/** Answers other than the expected success (and 409 / 503, sent again): none expected before the kill. */
const unexpected: string[] = [];

/**
 * Sends a write until it is answered: the answer (`expected` or another status), or undefined when
 * the stack died under it (no answer: it may or may not have landed).
 */
async function write(s: Started, method: string, path: string, body: unknown, expected: number) {
  for (let attempt = 0; attempt < 20; attempt++) {
    const res = await call(s, method, path, body).catch(() => undefined);
    if (!res) return undefined;
    if (res.status === 409 || res.status === 503) continue;
    if (res.status !== expected && !killed)
      unexpected.push(`${method} ${path}: ${res.status} ${res.body?.code}`);
    return res;
  }
  return undefined;
}

async function worker(s: Started, w: number): Promise<void> {
  for (let n = 0; !killed; n++) {
    const title = `Durable ${w}.${n}`;
    const category = `Durable Category ${w}.${n}`;
    let res = await write(
      s,
      'POST',
      '/events',
      { title, start_date: '2034-02-01 10:00', end_date: '2034-02-01 12:00', categories: [category] },
      201,
    );
    if (!res) return; // the stack died under this request: not acknowledged
    if (res.status !== 201) continue;
    acks++;
    const rec: Record_ = {
      id: res.body.id,
      title,
      category,
      excerpts: [],
      deleted: false,
      deleteInFlight: false,
    };
    acked.push(rec);
    for (const k of [1, 2]) {
      const excerpt = `Excerpt ${k} of ${w}.${n}`;
      rec.inFlightExcerpt = excerpt;
      res = await write(s, 'PATCH', `/events/${rec.id}`, { excerpt }, 200);
      if (!res) return;
      if (res.status !== 200) break;
      acks++;
      rec.excerpts.push(excerpt);
      rec.inFlightExcerpt = undefined;
    }
    if (n % 3 === 2 && rec.inFlightExcerpt === undefined) {
      rec.deleteInFlight = true;
      res = await write(s, 'DELETE', `/events/${rec.id}?force=true`, undefined, 200);
      if (!res) return;
      if (res.status !== 200) continue;
      acks++;
      rec.deleted = true;
      rec.deleteInFlight = false;
    }
  }
}

describe('the local stack killed outright during a burst of writes', () => {
  let second: Started;

  beforeAll(async () => {
    first = await start();
    const burst = Array.from({ length: WORKERS }, (_, w) => worker(first, w));
    await waitUntil(`${KILL_AFTER_ACKS} acknowledged writes`, () => acks >= KILL_AFTER_ACKS, 120_000).catch(
      (e: Error) => {
        throw new Error(`${e.message} (${acks} acknowledged; refused: ${unexpected.slice(0, 5).join('; ')})`);
      },
    );
    // The whole stack at once, mid-burst: the gateway's node process and DynamoDB Local's Java.
    killed = true;
    await first.killOutright();
    await Promise.all(burst);
    second = await start();
  }, 300_000);

  it('acknowledged writes before the kill, and refused none', () => {
    expect(unexpected).toEqual([]);
    expect(acks).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
    expect(acked.filter((r) => r.deleted).length).toBeGreaterThan(0);
  });

  it('keeps every acknowledged event whole after the restart', async () => {
    const problems: string[] = [];
    for (const rec of acked.filter((r) => !r.deleted && !r.deleteInFlight)) {
      const res = await call(second, 'GET', `/events/${rec.id}`);
      if (res.status !== 200) {
        problems.push(`event ${rec.id} (${rec.title}): ${res.status}`);
        continue;
      }
      const e = res.body;
      const excerpt = String(e.excerpt ?? '')
        .replace(/<[^>]+>/g, '')
        .trim();
      const allowed = [rec.excerpts.at(-1) ?? '', ...(rec.inFlightExcerpt ? [rec.inFlightExcerpt] : [])];
      if (e.title !== rec.title) problems.push(`event ${rec.id}: title ${e.title} instead of ${rec.title}`);
      if (!allowed.includes(excerpt))
        problems.push(`event ${rec.id}: excerpt "${excerpt}", acknowledged ${JSON.stringify(allowed)}`);
      const names = (e.categories as Json[]).map((c) => c.name);
      if (names.join() !== rec.category)
        problems.push(`event ${rec.id}: categories ${JSON.stringify(names)}`);
    }

    expect(problems).toEqual([]);
  });

  it('keeps every acknowledged permanent delete: the event is gone', async () => {
    const problems: string[] = [];
    for (const rec of acked.filter((r) => r.deleted)) {
      const res = await call(second, 'GET', `/events/${rec.id}`);
      if (res.status !== 404) problems.push(`deleted event ${rec.id}: ${res.status}`);
    }

    expect(problems).toEqual([]);
  });

  it('keeps the term counts equal to a recount of the events', async () => {
    const events = await call(second, 'GET', '/events?start_date=2034-02-01&end_date=2034-02-01&per_page=50');
    expect(events.status).toBe(200);
    const live = acked.filter((r) => !r.deleted && !r.deleteInFlight);
    expect(events.body.total).toBeGreaterThanOrEqual(live.length);
    const terms = await call(second, 'GET', '/categories?hide_empty=false&per_page=50&search=Durable');
    const counts = new Map<string, number>((terms.body.categories as Json[]).map((t) => [t.name, t.count]));
    for (const rec of live) expect(counts.get(rec.category), rec.category).toBe(1);
  });

  it('takes new writes after the restart, with IDs after the acknowledged ones', async () => {
    const res = await call(second, 'POST', '/events', {
      title: 'After the restart',
      start_date: '2034-03-01 10:00',
      end_date: '2034-03-01 12:00',
    });

    expect(res.status).toBe(201);
    expect(res.body.id).toBeGreaterThan(Math.max(...acked.map((r) => r.id)));
  });

  // `npm start` runs the handlers under tsx, whose module interop differs from vitest's and the
  // bundles': the checks these bodies load on demand must load there too.
  it('takes writes whose bodies load their checks on demand (URLs, e-mail, markup, dates)', async () => {
    const venue = await call(second, 'POST', '/venues', {
      venue: 'Web Hall',
      website: 'https://example.org',
    });
    const organizer = await call(second, 'POST', '/organizers', {
      organizer: 'Web Society',
      email: 'info@example.org',
      website: 'https://example.org/society',
    });
    const event = await call(second, 'POST', '/events', {
      title: 'Loaded <b>on demand</b>',
      description: '<p>Markup<script>x()</script></p>',
      start_date: '2034-03-02T10:00:00+01:00',
      end_date: '2034-03-02 12:00',
      date: '2034-01-01 09:00',
      website: 'https://example.org/event',
      venue: { venue: 'Inline Web Hall', website: 'https://example.org/inline' },
    });
    const bad = await call(second, 'POST', '/organizers', { organizer: 'Bad', email: 'not an address' });

    expect([venue.status, organizer.status, event.status], JSON.stringify(event.body)).toEqual([
      201, 201, 201,
    ]);
    expect(event.body).toMatchObject({ title: 'Loaded on demand', website: 'https://example.org/event' });
    expect(event.body.description).toBe('<p>Markup</p>');
    expect(bad.status).toBe(400);
    expect(bad.body.data.params).toEqual({ email: 'email must be an e-mail address.' });
  });

  it('stops cleanly on SIGTERM, leaving no process behind', async () => {
    process.kill(second.child.pid!, 'SIGTERM');

    await waitUntil('the gateway port to close', async () => !(await answers(second.port)), 15_000);
    await waitUntil(
      'every process of the stack to end',
      () => second.tree.every((p) => !isAlive(p.pid)),
      15_000,
    ).catch((e: Error) => {
      const left = second.tree.filter((p) => isAlive(p.pid)).map((p) => `${p.pid} ${p.args}`);
      throw new Error(`${e.message}; still running:\n${left.join('\n')}`);
    });
  });
});
