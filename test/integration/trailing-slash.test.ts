import { beforeAll, describe, expect, it } from 'vitest';
import type { CallOptions, Reply } from '../support/stack';
import { useStack } from '../support/use-stack';

/**
 * Decisions §1: a trailing slash is ignored. `/events/` answers exactly as `/events` (status, body and
 * headers, never a redirect) for every method and route; 404 and 405 hold with a slash too. Locally the
 * slashed path goes where API Gateway sends it, the `$default` route, whose function dispatches it to
 * the operation (in AWS by Lambda Invoke; test/handlers/no-route-dispatch.test.ts covers that path).
 *
 * The clock is fixed (Date only) so that two writes a moment apart read the same.
 */
const {
  api,
  tokens: { editor },
} = await useStack({ now: new Date('2026-06-01T12:00:00Z'), tokens: { editor: 'editor' } });
const seen: Array<{ method: string; path: string; status: number }> = [];

let event: { id: number; slug: string };
let venueId: number;
let categoryId: number;

const EVENT = {
  title: 'Slash Concert',
  start_date: '2027-03-10 19:00',
  end_date: '2027-03-10 22:00',
  categories: ['Slash Music'],
  venue: { venue: 'Slash Hall', city: 'Lyon' },
};

beforeAll(async () => {
  const created = await api.post('/events', EVENT, { token: editor });
  event = created.body;
  venueId = created.body.venue.id;
  categoryId = created.body.categories[0].id;
  for (const n of [1, 2])
    await api.post(
      '/events',
      {
        ...EVENT,
        title: `Slash Concert ${n}`,
        start_date: `2027-03-1${n} 19:00`,
        end_date: `2027-03-1${n} 22:00`,
      },
      { token: editor },
    );
});

/** `/events?x=1` → `/events/?x=1`; the namespace root `` → `/`. */
const slashed = (path: string) => {
  const [p, q] = path.split('?') as [string, string | undefined];
  return `${p}/${q === undefined ? '' : `?${q}`}`;
};

async function call(method: string, path: string, o: CallOptions = {}): Promise<Reply> {
  const reply = await api.call(method, path, o);
  seen.push({ method, path, status: reply.status });
  return reply;
}

/**
 * What a client sees of a reply: status, body and every header but the transport's Date. A write's
 * record ETag names the version it wrote (`"<id>-<version>-<digest>"`), and two writes are two
 * versions: for writes only the record's ID is compared (its form is checked here).
 */
function view(reply: Reply, write = false) {
  const headers: Record<string, string> = {};
  reply.headers.forEach((v, k) => {
    if (k !== 'date') headers[k] = v;
  });
  if (write && reply.status < 300) {
    expect(headers.etag).toMatch(/^"\d+-\d+-[\w-]+"$/);
    headers.etag = headers.etag!.replace(/^"(\d+)-.*"$/, '"$1-<version>-<digest>"');
  }
  return { status: reply.status, body: reply.body, headers };
}

/** Sends the same request without and then with the trailing slash. */
async function both(method: string, path: string, o: CallOptions = {}) {
  const plain = await call(method, path, o);
  const slash = await call(method, slashed(path), o);
  const write = method !== 'GET';
  return { plain: view(plain, write), slash: view(slash, write) };
}

/** A created or deleted event's reply as it would read for another ID (all that a new record changes). */
function renumber(reply: ReturnType<typeof view>, from: number, to: number) {
  const swap = (s: string) =>
    s
      .replaceAll(`"id":${from},`, `"id":${to},`)
      .replaceAll(`?id=${from}"`, `?id=${to}"`)
      .replaceAll(`/events/${from}"`, `/events/${to}"`);
  const headers = { ...reply.headers };
  if (headers.location) headers.location = headers.location.replace(new RegExp(`/${from}$`), `/${to}`);
  if (headers.etag) headers.etag = headers.etag.replace(`"${from}-`, `"${to}-`);
  return { ...reply, body: JSON.parse(swap(JSON.stringify(reply.body))), headers };
}

describe('reads answer the same with a trailing slash', () => {
  it.each([
    ['the namespace index', ''],
    ['the OpenAPI document', '/doc'],
    ['an event list', '/events'],
    ['an event list page with paging headers', '/events?per_page=1&page=2'],
    ['a filtered event list', '/events?start_date=2027-03-11&end_date=2027-03-31&per_page=1'],
    ['a venue list', '/venues'],
    ['a category list', '/categories?hide_empty=false'],
    ['a tag list', '/tags?hide_empty=false'],
    ['a page past the end', '/events?page=99'],
    ['a bad parameter', '/events?per_page=0'],
  ])('GET %s', async (_label, path) => {
    const { plain, slash } = await both('GET', path);

    expect(slash).toEqual(plain);
  });

  it('GET an event list: 200 with the X-Cal paging headers and Link', async () => {
    const { plain, slash } = await both('GET', '/events?per_page=1&page=2');

    expect(slash.status).toBe(200);
    expect(slash.headers['x-cal-total']).toBe('3');
    expect(slash.headers['x-cal-totalpages']).toBe('3');
    expect(slash.headers.link).toContain('rel="next"');
    expect(slash.headers['x-cal-api-version']).toBe('v1');
    expect(slash.headers['x-cal-api-root']).toBe(`${api.base}/`);
    expect(slash).toEqual(plain);
  });

  it('GET one event by ID and by slug, a venue, a category', async () => {
    for (const path of [
      `/events/${event.id}`,
      `/events/by-slug/${event.slug}`,
      `/venues/${venueId}`,
      `/categories/${categoryId}`,
    ]) {
      const { plain, slash } = await both('GET', path);

      expect(slash.status, path).toBe(200);
      expect(slash, path).toEqual(plain);
    }
  });

  it('GET an unknown ID: the same 404 of the resource', async () => {
    const { plain, slash } = await both('GET', '/events/999999');

    expect(slash.status).toBe(404);
    expect(slash.body.code).toBe('rest-event-not-found');
    expect(slash).toEqual(plain);
  });
});

describe('writes answer the same with a trailing slash', () => {
  it('POST create: the same reply but for the new ID', async () => {
    const plain = view(
      await call('POST', '/events', { body: { ...EVENT, title: 'Created Twice' }, token: editor }),
      true,
    );
    // Free the slug again, so the second record is the first one's twin.
    await api.del(`/events/${plain.body.id}?force=true`, { token: editor });
    const slash = view(
      await call('POST', '/events/', { body: { ...EVENT, title: 'Created Twice' }, token: editor }),
      true,
    );

    expect(slash.status).toBe(201);
    expect(slash.body.id).not.toBe(plain.body.id);
    expect(slash.body.slug).toBe('created-twice');
    expect(slash.headers.location).toBe(`${api.base}/events/${slash.body.id}`);
    expect(slash).toEqual(renumber(plain, plain.body.id, slash.body.id));
  });

  it('POST create without a token or with a bad body: the same 401 and 400', async () => {
    const anonymous = await both('POST', '/events', { body: EVENT });
    const invalid = await both('POST', '/events', { body: { title: '' }, token: editor });

    expect(anonymous.slash.status).toBe(401);
    expect(anonymous.slash).toEqual(anonymous.plain);
    expect(invalid.slash.status).toBe(400);
    expect(invalid.slash).toEqual(invalid.plain);
  });

  it.each(['PATCH', 'PUT', 'POST'])('%s update by ID and by slug', async (method) => {
    for (const path of [`/events/${event.id}`, `/events/by-slug/${event.slug}`]) {
      const body = { description: `<p>Updated with ${method}</p>`, featured: true };
      const { plain, slash } = await both(method, path, { body, token: editor });

      expect(slash.status, path).toBe(200);
      expect(slash.body.description, path).toBe(`<p>Updated with ${method}</p>`);
      expect(slash, path).toEqual(plain);
    }
  });

  it('PATCH a category and a venue', async () => {
    for (const [path, body] of [
      [`/categories/${categoryId}`, { description: 'Slashed' }],
      [`/venues/${venueId}`, { city: 'Marseille' }],
    ] as const) {
      const { plain, slash } = await both('PATCH', path, { body, token: editor });

      expect(slash.status, path).toBe(200);
      expect(slash, path).toEqual(plain);
    }
  });

  it('DELETE to the trash: the same reply but for the ID', async () => {
    const body = { ...EVENT, title: 'Trashed Twice' };
    const first = (await api.post('/events', body, { token: editor })).body;
    const plain = view(await call('DELETE', `/events/${first.id}`, { token: editor }), true);
    await api.del(`/events/${first.id}?force=true`, { token: editor });
    const second = (await api.post('/events', body, { token: editor })).body;
    const slash = view(await call('DELETE', `/events/${second.id}/`, { token: editor }), true);

    expect(slash.status).toBe(200);
    expect(slash.body.status).toBe('trash');
    expect(slash).toEqual(renumber(plain, first.id, second.id));
  });

  it('DELETE again: the same 410, and a forced DELETE by slug', async () => {
    const trashed = (await api.post('/events', { ...EVENT, title: 'Gone Already' }, { token: editor })).body;
    await api.del(`/events/${trashed.id}`, { token: editor });

    const again = await both('DELETE', `/events/${trashed.id}`, { token: editor });
    expect(again.slash.status).toBe(410);
    expect(again.slash).toEqual(again.plain);

    const forced = await call('DELETE', `/events/by-slug/${trashed.slug}/?force=true`, { token: editor });
    expect(forced.status).toBe(200);
    expect(forced.body.id).toBe(trashed.id);
    expect((await api.get(`/events/${trashed.id}`, { token: editor })).status).toBe(404);
  });
});

describe('no route, with or without a trailing slash', () => {
  it.each([
    ['an unknown path', '/nope'],
    ['an unknown path below a known one', '/events/1/children'],
    ['an ID that is not digits', '/events/abc'],
    ['another namespace version', '/../v2/events'],
  ])('GET %s: 404 rest_no_route', async (_label, path) => {
    const { plain, slash } = await both('GET', path);

    expect(slash.status).toBe(404);
    expect(slash.body.code).toBe('rest_no_route');
    expect(slash.headers.location).toBeUndefined();
    expect(slash).toEqual(plain);
  });

  it.each([
    ['DELETE', '/events', 'GET, POST'],
    ['PUT', '/categories', 'GET, POST'],
    ['POST', '/doc', 'GET'],
    ['PUT', '', 'GET'],
  ])('%s %s/: 405 rest_no_route with Allow: %s', async (method, path, allow) => {
    const { plain, slash } = await both(method, path, { token: editor });

    expect(slash.status).toBe(405);
    expect(slash.body.code).toBe('rest_no_route');
    expect(slash.headers.allow).toBe(allow);
    expect(slash).toEqual(plain);
  });
});

describe('redirects', () => {
  it('none: no reply of this file was a 3xx', () => {
    expect(seen.length).toBeGreaterThan(40);
    expect(seen.filter((r) => r.status >= 300 && r.status < 400)).toEqual([]);
  });
});
