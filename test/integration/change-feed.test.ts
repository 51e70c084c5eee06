import { describe, expect, it } from 'vitest';
import { encodeCursor, positionAt } from '../../shared/domain/changes';
import { ddb } from '../../shared/db/client';
import { useStack } from '../support/use-stack';
import { type Rec } from '../support/bodies';

/**
 * The change feed (issue 11): GET /changes lists, oldest first, every change to events, venues,
 * organizers, categories and tags after a cursor, as the caller may see it; a page is one Query.
 * The proof of the whole: a client that applies the feed to an empty copy, fetching each rest_url,
 * ends with exactly what the list routes give that caller, after 500 random writes by several roles.
 */

// The feed holds back entries younger than the settle delay; these tests read right after writing.
process.env.CHANGES_SETTLE_SECONDS = '0';

const {
  api,
  tokens: { editor, author, contributor, other },
} = await useStack({
  tokens: {
    editor: 'editor',
    author: 'author',
    contributor: 'contributor',
    other: ['contributor', 'user-other'],
  },
});

interface Change {
  resource: string;
  id: number;
  action: string;
  modified_utc: string;
  rest_url: string;
}

const WHEN = { start_date: '2031-03-10 18:00:00', end_date: '2031-03-10 21:00:00' };

async function made(path: string, body: Rec, token = editor): Promise<Rec> {
  const res = await api.post(path, body, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as Rec;
}

/** Every change after `since` for the caller, following the cursors; and the last cursor. */
async function feed(token?: string, since?: string, perPage = 100) {
  const changes: Change[] = [];
  let cursor = since;
  for (let pages = 0; pages < 1000; pages++) {
    const q = new URLSearchParams({ per_page: String(perPage), ...(cursor ? { since: cursor } : {}) });
    const res = await api.get(`/changes?${q}`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    changes.push(...res.body.changes);
    cursor = res.body.next_cursor;
    if (!res.body.has_more) return { changes, cursor: cursor! };
  }
  throw new Error('the feed never ended');
}

/** The cursor of "now": everything so far read. */
const now = async (token?: string) => (await feed(token, undefined, 500)).cursor;

const about = (changes: Change[], resource: string, id: number) =>
  changes.filter((c) => c.resource === resource && c.id === id).map((c) => c.action);

describe('GET /changes: shape and order', () => {
  it('lists creates oldest first, with rest_urls of this API and a cursor to read on', async () => {
    const since = await now();
    const category = await made('/categories', { name: 'Feed Shape Category' });
    const tag = await made('/tags', { name: 'Feed Shape Tag' });
    const venue = await made('/venues', { venue: 'Feed Shape Venue' });
    const organizer = await made('/organizers', { organizer: 'Feed Shape Organizer' });
    const event = await made('/events', {
      ...WHEN,
      title: 'Feed Shape Event',
      venue: venue.id,
      organizer: organizer.id,
      categories: [category.id],
      tags: [tag.id],
    });

    const res = await api.get(`/changes?since=${since}`);

    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['changes', 'next_cursor', 'has_more']);
    expect(res.body.has_more).toBe(false);
    expect(res.body.changes.map((c: Change) => [c.resource, c.id, c.action])).toEqual([
      ['categories', category.id, 'created'],
      ['tags', tag.id, 'created'],
      ['venues', venue.id, 'created'],
      ['organizers', organizer.id, 'created'],
      ['events', event.id, 'created'],
    ]);
    const last = res.body.changes.at(-1) as Change;
    expect(last).toEqual({
      resource: 'events',
      id: event.id,
      action: 'created',
      modified_utc: event.modified_utc,
      rest_url: `${api.base}/events/${event.id}`,
    });
    expect(last.modified_utc).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    // Read on from the cursor: nothing new.
    const again = await api.get(`/changes?since=${res.body.next_cursor}`);
    expect(again.body).toMatchObject({ changes: [], has_more: false });
    // An idle feed's cursor moves to the settled present, so a caught-up client's cursor stays fresh.
    const marks = Date.parse(Buffer.from(again.body.next_cursor, 'base64url').toString().slice(2, 26));
    expect(Math.abs(Date.now() - marks)).toBeLessThan(60_000);
  });

  it('logs inline creates of venues, organizers and terms in the event’s write', async () => {
    const since = await now();
    const event = await made('/events', {
      ...WHEN,
      title: 'Inline Feed Event',
      venue: { venue: 'Inline Feed Hall' },
      organizer: { organizer: 'Inline Feed Band' },
      categories: ['Inline Feed Category'],
      tags: ['Inline Feed Tag'],
    });
    const { changes } = await feed(editor, since);
    // One transaction: the event's own entry first, then the records it created, in body order.
    expect(changes.map((c) => [c.resource, c.action])).toEqual([
      ['events', 'created'],
      ['categories', 'created'],
      ['tags', 'created'],
      ['venues', 'created'],
      ['organizers', 'created'],
    ]);
    expect(changes[0]!.id).toBe(event.id);
    expect(changes.find((c) => c.resource === 'venues')!.id).toBe(event.venue.id);
  });

  it('says updated, removed (trash, delete) and restored', async () => {
    const since = await now();
    const venue = await made('/venues', { venue: 'Lifecycle Venue' });
    const event = await made('/events', { ...WHEN, title: 'Lifecycle Event', venue: venue.id });
    const tag = await made('/tags', { name: 'Lifecycle Tag' });
    await api.post(`/events/${event.id}`, { title: 'Lifecycle Event, renamed' }, { token: editor });
    await api.del(`/events/${event.id}`, { token: editor });
    await api.post(`/events/${event.id}`, { status: 'publish' }, { token: editor });
    await api.post(`/tags/${tag.id}`, { name: 'Lifecycle Tag 2' }, { token: editor });
    await api.del(`/tags/${tag.id}`, { token: editor });
    await api.del(`/venues/${venue.id}?force=true`, { token: editor });

    for (const token of [undefined, editor]) {
      const { changes } = await feed(token, since);
      expect(about(changes, 'events', event.id)).toEqual([
        'created',
        'updated',
        'removed',
        'restored',
        'updated', // the venue's delete unlinked it
      ]);
      expect(about(changes, 'tags', tag.id)).toEqual(['created', 'updated', 'removed']);
      expect(about(changes, 'venues', venue.id)).toEqual(['created', 'removed']);
    }
  });

  it('pages with cursors: small pages chain to the same changes as one big page', async () => {
    const since = await now();
    for (let i = 0; i < 7; i++) await made('/tags', { name: `Paging Feed Tag ${i}` });
    const whole = await feed(undefined, since, 100);
    const pages: Rec[] = [];
    let cursor = since;
    for (;;) {
      const res = await api.get(`/changes?since=${cursor}&per_page=3`);
      pages.push(res.body);
      cursor = res.body.next_cursor;
      if (!res.body.has_more) break;
    }
    expect(pages.map((p) => p.changes.length)).toEqual([3, 3, 1]);
    expect(pages.flatMap((p) => p.changes)).toEqual(whole.changes);
    expect(whole.changes).toHaveLength(7);
    expect(pages.slice(0, -1).every((p) => p.has_more)).toBe(true);
  });

  it('starts at the beginning of the retained history without since', async () => {
    const all = await feed();
    expect(all.changes.length).toBeGreaterThan(10);
    expect(all.changes[0]).toMatchObject({ resource: 'categories', action: 'created' });
  });
});

describe('GET /changes in the contract', () => {
  it('is listed by the namespace index and /doc, with its parameters', async () => {
    const index = await api.get('');
    const route = index.body.routes['/cal/events/v1/changes'];
    expect(route.methods).toEqual(['GET']);
    expect(Object.keys(route.endpoints[0].args).sort()).toEqual(['per_page', 'since']);
    expect(route.endpoints[0].args.per_page).toMatchObject({ default: 100, minimum: 1, maximum: 500 });
    const doc = await api.get('/doc');
    const op = doc.body.paths['/changes'].get;
    expect(op.operationId).toBe('listChanges');
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '401']));
  });
});

describe('GET /changes: bad input is a 400 in the error envelope', () => {
  const invalid = async (query: string, param: string, code: string) => {
    const res = await api.get(`/changes?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
    expect(res.body.data.status).toBe(400);
    expect(res.body.data.details[param].code).toBe(code);
    return res.body;
  };

  it('a malformed cursor says how to start over', async () => {
    for (const bad of ['nope', 'bm90IGEgY3Vyc29y', '%%%', encodeCursor('2026-01-01')]) {
      const body = await invalid(`since=${encodeURIComponent(bad)}`, 'since', 'rest_invalid_cursor');
      expect(body.data.params.since).toMatch(/Start over without since/);
    }
  });

  it('an expired cursor (older than the 35 days kept) says how to start over', async () => {
    const old = encodeCursor(positionAt(Date.now() - 36 * 24 * 3600 * 1000));
    const body = await invalid(`since=${old}`, 'since', 'rest_invalid_cursor');
    expect(body.data.params.since).toMatch(/expired.*35 days.*Start over without since/);
    // 30 days back is still good.
    const fine = encodeCursor(positionAt(Date.now() - 30 * 24 * 3600 * 1000));
    expect((await api.get(`/changes?since=${fine}`)).status).toBe(200);
  });

  it('a cursor from the future is not one of ours', async () => {
    const future = encodeCursor(positionAt(Date.now() + 3600 * 1000));
    await invalid(`since=${future}`, 'since', 'rest_invalid_cursor');
  });

  it('per_page out of range or not a number', async () => {
    for (const v of ['0', '501', '-1', 'ten', '1.5']) {
      const res = await api.get(`/changes?per_page=${v}`);
      expect(res.status, v).toBe(400);
      expect(res.body.code).toBe('rest_invalid_param');
      expect(res.body.data.params).toHaveProperty('per_page');
    }
    expect((await api.get('/changes?per_page=500')).status).toBe(200);
  });

  it('a bad token is a 401, as on every public route', async () => {
    const res = await api.get('/changes', { token: 'not.a.token' });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('rest_invalid_token');
  });
});

describe('GET /changes: each caller sees the changes of the records it may see', () => {
  it('drafts and pending records: their author and editors, not the public nor other contributors', async () => {
    const since = await now();
    const draft = await made('/events', { ...WHEN, title: 'Feed Draft', status: 'draft' }, contributor);
    await api.post(`/events/${draft.id}`, { status: 'pending' }, { token: contributor });
    await api.post(`/events/${draft.id}`, { status: 'publish' }, { token: editor });
    await api.post(`/events/${draft.id}`, { status: 'draft' }, { token: editor });

    const seen = async (token?: string) => about((await feed(token, since)).changes, 'events', draft.id);
    expect(await seen()).toEqual(['created', 'removed']);
    expect(await seen(other)).toEqual(['created', 'removed']);
    expect(await seen(contributor)).toEqual(['created', 'updated', 'updated', 'updated']);
    expect(await seen(editor)).toEqual(['created', 'updated', 'updated', 'updated']);
  });

  it('private records: editors only (and their author); trash leaves every view', async () => {
    const since = await now();
    const venue = await made('/venues', { venue: 'Private Feed Venue', status: 'private' }, author);
    await api.del(`/venues/${venue.id}`, { token: author });
    await api.post(`/venues/${venue.id}`, { status: 'publish' }, { token: author });

    const seen = async (token?: string) => about((await feed(token, since)).changes, 'venues', venue.id);
    // Out of the trash into the view is `restored`, whether or not the caller saw it before.
    expect(await seen()).toEqual(['restored']);
    expect(await seen(other)).toEqual(['restored']);
    expect(await seen(author)).toEqual(['created', 'removed', 'restored']);
    expect(await seen(editor)).toEqual(['created', 'removed', 'restored']);
  });

  it('an event hidden from listings leaves the view (the lists do not show it)', async () => {
    const since = await now();
    const event = await made('/events', { ...WHEN, title: 'Hide Me Feed' });
    await api.post(`/events/${event.id}`, { hide_from_listings: true }, { token: editor });
    await api.post(`/events/${event.id}`, { title: 'Hide Me Feed 2' }, { token: editor });
    await api.post(`/events/${event.id}`, { hide_from_listings: false }, { token: editor });
    for (const token of [undefined, editor])
      expect(about((await feed(token, since)).changes, 'events', event.id)).toEqual([
        'created',
        'removed',
        'created',
      ]);
  });

  it('a removed change carries no content, only where the record was', async () => {
    const since = await now();
    const event = await made('/events', { ...WHEN, title: 'Secret Soon' });
    await api.post(`/events/${event.id}`, { status: 'private', title: 'Secret Now' }, { token: editor });
    const { changes } = await feed(undefined, since);
    const removed = changes.find((c) => c.id === event.id && c.action === 'removed')!;
    expect(Object.keys(removed).sort()).toEqual(['action', 'id', 'modified_utc', 'resource', 'rest_url']);
    expect(JSON.stringify(changes)).not.toContain('Secret');
  });
});

describe('GET /changes: settle delay and cost', () => {
  it('holds back entries younger than the settle delay, without passing them', async () => {
    const since = await now();
    process.env.CHANGES_SETTLE_SECONDS = '3600';
    try {
      await made('/tags', { name: 'Settling Feed Tag' });
      const early = await api.get(`/changes?since=${since}`);
      expect(early.body).toMatchObject({ changes: [], has_more: false });
      process.env.CHANGES_SETTLE_SECONDS = '0';
      const late = await api.get(`/changes?since=${early.body.next_cursor}`);
      expect(late.body.changes.map((c: Change) => c.action)).toEqual(['created']);
    } finally {
      process.env.CHANGES_SETTLE_SECONDS = '0';
    }
  });
});

// ---------------------------------------------------------------------------------------------------
// The replay: 500 random writes, then the feed applied to an empty copy equals the lists.

/** A small seeded generator, so that a failure can be replayed. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!,
    chance: (p: number) => next() < p,
  };
}

const RESOURCES = ['events', 'venues', 'organizers', 'categories', 'tags'] as const;
type Resource = (typeof RESOURCES)[number];
const STATUSES = ['publish', 'draft', 'pending', 'private', 'trash'] as const;

/** What the list routes give the caller: resource → id → modified_utc (terms: their slug). */
async function listed(token?: string): Promise<Record<Resource, Map<number, string>>> {
  const out = {} as Record<Resource, Map<number, string>>;
  const query: Record<Resource, string> = {
    events: 'start_date=2000-01-01&end_date=2100-01-01',
    venues: '',
    organizers: '',
    categories: 'hide_empty=false',
    tags: 'hide_empty=false',
  };
  for (const r of RESOURCES) {
    out[r] = new Map();
    for (let page = 1; ; page++) {
      const res = await api.get(`/${r}?${query[r]}&per_page=50&page=${page}`, { token });
      if (res.status === 404 && page > 1) break;
      expect(res.status, `${r} page ${page}`).toBe(200);
      for (const item of res.body[r] as Rec[]) out[r].set(item.id, item.modified_utc ?? item.slug);
      if (page >= res.body.total_pages) break;
    }
  }
  return out;
}

/** A client: applies the whole feed to an empty copy, fetching each rest_url as `token`'s caller. */
async function replay(token?: string) {
  const copy = Object.fromEntries(RESOURCES.map((r) => [r, new Map<number, string>()])) as Record<
    Resource,
    Map<number, string>
  >;
  const { changes } = await feed(token);
  for (const c of changes) {
    const bucket = copy[c.resource as Resource];
    if (c.action === 'removed') {
      bucket.delete(c.id);
      continue;
    }
    expect(c.rest_url.startsWith(api.base)).toBe(true);
    const res = await api.get(c.rest_url.slice(api.base.length), { token });
    if (res.status === 200) bucket.set(c.id, res.body.modified_utc ?? res.body.slug);
    else {
      expect([401, 403, 404, 410], `${c.rest_url}: ${res.status}`).toContain(res.status);
      bucket.delete(c.id);
    }
  }
  return { copy, actions: changes.map((c) => c.action) };
}

describe('the replay: a client applying the feed ends with what the lists give', () => {
  it('after 500 random writes by several roles, for anonymous callers and editors', async () => {
    const rnd = random(20261123);
    const writers = [editor, editor, author, contributor, other];
    const ids: Record<Resource, number[]> = {
      events: [],
      venues: [],
      organizers: [],
      categories: [],
      tags: [],
    };
    const statuses = new Map<string, string>();
    let n = 0;
    let ok = 0;
    const name = (what: string) => `Replay ${what} ${++n}`;
    const some = (r: Resource, max: number) =>
      ids[r].length === 0
        ? []
        : [...new Set(Array.from({ length: rnd.int(max + 1) }, () => rnd.pick(ids[r])))];
    const write = async (method: 'post' | 'del', path: string, body?: Rec, token = editor) => {
      const res = method === 'post' ? await api.post(path, body, { token }) : await api.del(path, { token });
      expect(
        res.status,
        `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`,
      ).toBeLessThan(500);
      if (res.status < 300) ok++;
      return res;
    };
    const day = () =>
      `2031-${String(1 + rnd.int(12)).padStart(2, '0')}-${String(1 + rnd.int(28)).padStart(2, '0')}`;

    for (let i = 0; i < 500; i++) {
      const token = rnd.pick(writers);
      const roll = rnd.next();
      if (roll < 0.08 || ids.categories.length + ids.tags.length < 4) {
        const r = rnd.pick(['categories', 'tags'] as const);
        const res = await write('post', `/${r}`, { name: name(r) });
        if (res.status === 201) ids[r].push(res.body.id);
      } else if (roll < 0.13) {
        const r = rnd.pick(['categories', 'tags'] as const);
        if (ids[r].length === 0) continue;
        const id = rnd.pick(ids[r]);
        if (rnd.chance(0.5)) await write('post', `/${r}/${id}`, { name: name(`${r} renamed`) });
        else {
          const res = await write('del', `/${r}/${id}`);
          if (res.status === 200) ids[r] = ids[r].filter((x) => x !== id);
        }
      } else if (roll < 0.3) {
        const r = rnd.pick(['venues', 'organizers'] as const);
        const field = r === 'venues' ? 'venue' : 'organizer';
        const res = await write(
          'post',
          `/${r}`,
          { [field]: name(field), status: rnd.pick(STATUSES.slice(0, 4)) },
          token,
        );
        if (res.status === 201) ids[r].push(res.body.id);
      } else if (roll < 0.45) {
        const r = rnd.pick(['venues', 'organizers'] as const);
        if (ids[r].length === 0) continue;
        const id = rnd.pick(ids[r]);
        const what = rnd.next();
        if (what < 0.5) await write('post', `/${r}/${id}`, { status: rnd.pick(STATUSES) }, token);
        else if (what < 0.7) await write('post', `/${r}/${id}`, { description: name('about') }, token);
        else if (what < 0.9) await write('del', `/${r}/${id}`, undefined, token);
        else {
          const res = await write('del', `/${r}/${id}?force=true`, undefined, editor);
          if (res.status === 200) ids[r] = ids[r].filter((x) => x !== id);
        }
      } else if (roll < 0.7) {
        const month = day().slice(0, 8);
        const body: Rec = {
          title: name('event'),
          start_date: `${month}${String(1 + rnd.int(9)).padStart(2, '0')} 18:00:00`,
          end_date: `${month}${String(10 + rnd.int(18))} 23:00:00`,
          status: rnd.pick(STATUSES.slice(0, 4)),
          hide_from_listings: rnd.chance(0.1),
          categories: some('categories', 2),
          tags: some('tags', 2),
        };
        if (rnd.chance(0.2)) body.venue = { venue: name('inline venue') };
        else if (ids.venues.length && rnd.chance(0.6)) body.venue = rnd.pick(ids.venues);
        if (ids.organizers.length && rnd.chance(0.5)) body.organizer = some('organizers', 2);
        const res = await write('post', '/events', body, token);
        if (res.status === 201) {
          ids.events.push(res.body.id);
          statuses.set(`e${res.body.id}`, res.body.status);
          if (body.venue && typeof body.venue === 'object' && res.body.venue?.id)
            ids.venues.push(res.body.venue.id);
        }
      } else {
        if (ids.events.length === 0) continue;
        const id = rnd.pick(ids.events);
        const what = rnd.next();
        if (what < 0.35) await write('post', `/events/${id}`, { status: rnd.pick(STATUSES) }, token);
        else if (what < 0.55) await write('post', `/events/${id}`, { title: name('retitled') }, token);
        else if (what < 0.65)
          await write('post', `/events/${id}`, { hide_from_listings: rnd.chance(0.5) }, token);
        else if (what < 0.75) await write('post', `/events/${id}`, { tags: some('tags', 3) }, token);
        else if (what < 0.9) await write('del', `/events/${id}`, undefined, token);
        else {
          const res = await write('del', `/events/${id}?force=true`, undefined, editor);
          if (res.status === 200) ids.events = ids.events.filter((x) => x !== id);
        }
      }
    }
    // Most writes land; some are refused (contributors editing published records, and so on).
    expect(ok).toBeGreaterThan(300);

    for (const token of [undefined, editor]) {
      const { copy, actions } = await replay(token);
      const lists = await listed(token);
      expect(actions.length).toBeGreaterThan(100);
      // Every kind of change happened, for both callers.
      expect(new Set(actions)).toEqual(new Set(['created', 'updated', 'removed', 'restored']));
      for (const r of RESOURCES) {
        const sorted = (m: Map<number, string>) => [...m].sort(([a], [b]) => a - b);
        expect(sorted(copy[r]), `${r} for ${token ? 'an editor' : 'anonymous callers'}`).toEqual(
          sorted(lists[r]),
        );
      }
    }
    // Both views hold records, and they differ (the editor sees drafts, pending and private ones).
    const [anonymous, editors] = [await listed(), await listed(editor)];
    expect(anonymous.events.size).toBeGreaterThan(5);
    expect(editors.events.size).toBeGreaterThan(anonymous.events.size);
  }, 300_000);

  it('reads a page with one DynamoDB Query, whatever the size of the history', async () => {
    const calls: string[] = [];
    ddb.middlewareStack.add(
      (next, context) => async (args) => {
        calls.push(String(context.commandName));
        return next(args);
      },
      { step: 'initialize', name: 'changeFeedCallCounter' },
    );
    try {
      for (const token of [undefined, editor]) {
        calls.length = 0;
        const res = await api.get('/changes?per_page=200', { token });
        expect(res.status).toBe(200);
        expect(res.body.has_more).toBe(true);
        expect(calls).toEqual(['QueryCommand']);
      }
    } finally {
      ddb.middlewareStack.remove('changeFeedCallCounter');
    }
  });
});
