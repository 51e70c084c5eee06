import { beforeAll, describe, expect, it } from 'vitest';
import { useStack } from '../support/use-stack';
import { type Rec, creator } from '../support/bodies';

/**
 * "Nothing lost" under concurrency (issue 10), besides concurrency.test.ts (slugs, creates racing
 * deletes): 20 concurrent partial updates of different fields of one event; updates racing deletes
 * (never a half-written or resurrected record); 200 random concurrent link / unlink / trash / restore /
 * delete operations, after which every term count and every venue / organizer link equals a recount.
 */
const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

const WHEN = { start_date: '2036-04-10 19:00', end_date: '2036-04-10 22:00' };

const created = creator(api, editor);

/** A small deterministic PRNG (mulberry32), so a failure replays. */
function prng(seed: number) {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const outcome = (r: { status: number; body: any }) =>
  r.status >= 400 ? `${r.status} ${r.body?.code ?? ''}`.trim() : String(r.status);
const ids = (list: Rec[]) => list.map((r) => r.id as number).sort((a, b) => a - b);

describe('20 concurrent partial updates of different fields of one event', () => {
  let event: Rec;
  let replies: Array<{ field: string; first: string; status: number; body: Rec }>;
  const extras: Rec = {};

  beforeAll(async () => {
    extras.category = (await created('/categories', { name: 'Parallel Category' })).id;
    extras.tag = (await created('/tags', { name: 'Parallel Tag' })).id;
    extras.venue = (await created('/venues', { venue: 'Parallel Hall' })).id;
    extras.organizer = (await created('/organizers', { organizer: 'Parallel Society' })).id;
    event = await created('/events', { title: 'Parallel Night', ...WHEN });
    const updates: Array<[string, Rec]> = [
      ['title', { title: 'Parallel Night, edited' }],
      ['description', { description: '<p>Edited description</p>' }],
      ['excerpt', { excerpt: 'Edited excerpt' }],
      ['image', { image: 'https://example.com/parallel.png' }],
      ['cost', { cost: '$42' }],
      ['website', { website: 'https://parallel.example.com/' }],
      ['show_map', { show_map: false }],
      ['show_map_link', { show_map_link: false }],
      ['hide_from_listings', { hide_from_listings: true }],
      ['sticky', { sticky: true }],
      ['featured', { featured: true }],
      ['categories', { categories: [extras.category] }],
      ['tags', { tags: [extras.tag] }],
      ['venue', { venue: extras.venue }],
      ['organizer', { organizer: [extras.organizer] }],
      ['slug', { slug: 'parallel-renamed' }],
      ['timezone', { timezone: 'Europe/Paris' }],
      ['start_date', { start_date: '2036-04-10 18:00' }],
      ['end_date', { end_date: '2036-04-10 23:30' }],
      ['author', { author: 'user-parallel' }],
    ];
    // Each client does what a 409 asks: sends its update again (at most 30 times).
    replies = await Promise.all(
      updates.map(async ([field, body]) => {
        const first = await api.patch(`/events/${event.id}`, body, { token: editor });
        let res = first;
        for (let i = 0; i < 30 && res.status === 409; i++) {
          await new Promise((ok) => setTimeout(ok, 20 + Math.random() * 80));
          res = await api.patch(`/events/${event.id}`, body, { token: editor });
        }
        return { field, first: outcome(first), status: res.status, body: res.body as Rec };
      }),
    );
  }, 120_000);

  it('answers each one 200, or 409 rest_conflict (nothing written, send it again), never anything else', () => {
    const firsts = replies.map((r) => r.first).filter((o) => o !== '200' && o !== '409 rest_conflict');

    expect(firsts).toEqual([]);
  });

  // Without the server's own retry only one or two of twenty won the first time; a 409 is left only
  // to a race lost for longer than the retry budget (a loaded machine).
  it('resends a lost race itself: most first answers are 200', () => {
    console.log(
      `concurrent partial updates: ${replies.filter((r) => r.first === '200').length} of ${replies.length} answered 200 first`,
    );
    expect(replies.filter((r) => r.first === '200').length).toBeGreaterThanOrEqual(replies.length * 0.6);
  });

  it('applies every update in the end', () => {
    expect(
      replies.filter((r) => r.status !== 200).map((r) => `${r.field}: ${r.status} ${r.body?.code}`),
    ).toEqual([]);
  });

  it('keeps every field that was updated (none lost)', async () => {
    const e = (await api.get(`/events/${event.id}`, { token: editor })).body as Rec;
    const got = {
      title: e.title,
      description: e.description,
      excerpt: e.excerpt,
      image: e.image?.url,
      cost: e.cost,
      website: e.website,
      show_map: e.show_map,
      show_map_link: e.show_map_link,
      hide_from_listings: e.hide_from_listings,
      sticky: e.sticky,
      featured: e.featured,
      categories: ids(e.categories),
      tags: ids(e.tags),
      venue: [e.venue].flat().map((v: Rec) => v.id),
      organizer: ids(e.organizer),
      slug: e.slug,
      timezone: e.timezone,
      start: e.start_date,
      end: e.end_date,
      author: e.author,
    };

    expect(got).toEqual({
      title: 'Parallel Night, edited',
      description: '<p>Edited description</p>',
      excerpt: expect.stringContaining('Edited excerpt'),
      image: 'https://example.com/parallel.png',
      cost: '$42',
      website: 'https://parallel.example.com/',
      show_map: false,
      show_map_link: false,
      hide_from_listings: true,
      sticky: true,
      featured: true,
      categories: [extras.category],
      tags: [extras.tag],
      venue: [extras.venue],
      organizer: [extras.organizer],
      slug: 'parallel-renamed',
      timezone: 'Europe/Paris',
      start: '2036-04-10 18:00:00',
      end: '2036-04-10 23:30:00',
      author: 'user-parallel',
    });
  });

  it('counts the event once in the category and tag it now has', async () => {
    for (const kind of ['categories', 'tags'] as const) {
      const id = kind === 'categories' ? extras.category : extras.tag;
      expect((await api.get(`/${kind}/${id}`, { token: editor })).body.count, kind).toBe(1);
    }
  });
});

describe('updates racing deletes', () => {
  const ROUNDS = 8;
  interface Race {
    round: number;
    update: number;
    /** The delete's answer in the race, and after sending it again while it was 409. */
    del: number;
    retried: number;
    after: number;
    body: Rec;
  }
  const results: Race[] = [];
  /** Sends a delete again while it answers 409 (what the 409 asks), returns the last status. */
  const deleteUntilDone = async (path: string, first: number) => {
    let status = first;
    for (let i = 0; i < 30 && status === 409; i++) status = (await api.del(path, { token: editor })).status;
    return status;
  };
  const trashResults: Race[] = [];

  beforeAll(async () => {
    const category = (await created('/categories', { name: 'Racing Category' })).id;
    for (let round = 0; round < ROUNDS; round++) {
      const e = await created('/events', { title: `Racing ${round}`, ...WHEN, categories: [category] });
      const [update, del] = await Promise.all([
        api.patch(`/events/${e.id}`, { title: `Racing ${round} updated`, featured: true }, { token: editor }),
        api.del(`/events/${e.id}?force=true`, { token: editor }),
      ]);
      const retried = await deleteUntilDone(`/events/${e.id}?force=true`, del.status);
      const after = await api.get(`/events/${e.id}`, { token: editor });
      results.push({
        round,
        update: update.status,
        del: del.status,
        retried,
        after: after.status,
        body: after.body,
      });

      const t = await created('/events', { title: `Trash Racing ${round}`, ...WHEN, categories: [category] });
      const [u2, d2] = await Promise.all([
        api.patch(`/events/${t.id}`, { title: `Trash Racing ${round} updated` }, { token: editor }),
        api.del(`/events/${t.id}`, { token: editor }),
      ]);
      const r2 = await deleteUntilDone(`/events/${t.id}`, d2.status);
      const a2 = await api.get(`/events/${t.id}`, { token: editor });
      trashResults.push({
        round,
        update: u2.status,
        del: d2.status,
        retried: r2,
        after: a2.status,
        body: a2.body,
      });
    }
  }, 180_000);

  it('a permanent delete racing an update: each answers 200 or 409 (or 404 for an update after the delete)', () => {
    const bad = results.filter((r) => ![200, 409].includes(r.del) || ![200, 404, 409].includes(r.update));

    expect(bad.map(({ body: _, ...r }) => r)).toEqual([]);
  });

  it('a permanent delete, once answered 200, is for good: 404 after, never resurrected by the update', () => {
    const bad = results.filter((r) => r.retried !== 200 || r.after !== 404);

    expect(bad.map(({ body: _, ...r }) => r)).toEqual([]);
  });

  it('a trash racing an update: the record is whole, in the trash, with or without the update', () => {
    const bad = trashResults.filter((r) => {
      if (![200, 409].includes(r.del) || r.retried !== 200) return true;
      if (r.after !== 200 || r.body.status !== 'trash') return true;
      const title = r.body.title as string;
      // An update answered 200 is kept (unless it came first and the trash after, which keeps it too).
      if (r.update === 200) return title !== `Trash Racing ${r.round} updated`;
      return ![`Trash Racing ${r.round}`, `Trash Racing ${r.round} updated`].includes(title);
    });

    expect(bad).toEqual([]);
  });

  it('leaves the category counting none of them', async () => {
    const list = await api.get('/categories?hide_empty=false&search=Racing', { token: editor });
    expect(list.body.categories.map((c: Rec) => c.count)).toEqual([0]);
  });
});

describe('200 random concurrent link, unlink, trash, restore and delete operations', () => {
  const SEED = 10_2026;
  const OPS = 200;
  const CONCURRENCY = 20;
  const cats: number[] = [];
  const tags: number[] = [];
  const venues: number[] = [];
  const organizers: number[] = [];
  const events: number[] = [];
  const statuses = new Map<string, number>();

  beforeAll(async () => {
    for (let i = 0; i < 4; i++) {
      cats.push((await created('/categories', { name: `Chaos Category ${i}` })).id);
      tags.push((await created('/tags', { name: `Chaos Tag ${i}` })).id);
    }
    for (let i = 0; i < 3; i++) {
      venues.push((await created('/venues', { venue: `Chaos Hall ${i}` })).id);
      organizers.push((await created('/organizers', { organizer: `Chaos Society ${i}` })).id);
    }
    const rand = prng(SEED);
    const pick = <T>(a: readonly T[]) => a[Math.floor(rand() * a.length)]!;
    const some = <T>(a: readonly T[]) => a.filter(() => rand() < 0.4);
    for (let i = 0; i < 12; i++)
      events.push(
        (
          await created('/events', {
            title: `Chaos ${i}`,
            ...WHEN,
            categories: some(cats),
            tags: some(tags),
            venue: pick(venues),
            organizer: some(organizers),
          })
        ).id,
      );

    type Op = () => Promise<{ status: number; body: Rec }>;
    const ops: Array<[string, Op]> = Array.from({ length: OPS }, () => {
      const e = pick(events);
      const r = rand();
      if (r < 0.25) {
        const body = { categories: some(cats), tags: some(tags) };
        return ['link terms', () => api.patch(`/events/${e}`, body, { token: editor })];
      }
      if (r < 0.4) {
        const body = rand() < 0.5 ? { venue: pick(venues) } : { venue: [] };
        return ['link venue', () => api.patch(`/events/${e}`, body, { token: editor })];
      }
      if (r < 0.5) {
        const body = { organizer: some(organizers) };
        return ['link organizers', () => api.patch(`/events/${e}`, body, { token: editor })];
      }
      if (r < 0.62) return ['trash event', () => api.del(`/events/${e}`, { token: editor })];
      if (r < 0.74)
        return ['restore event', () => api.patch(`/events/${e}`, { status: 'publish' }, { token: editor })];
      if (r < 0.8) {
        const v = pick(venues);
        return rand() < 0.5
          ? ['trash venue', () => api.del(`/venues/${v}`, { token: editor })]
          : ['restore venue', () => api.patch(`/venues/${v}`, { status: 'publish' }, { token: editor })];
      }
      if (r < 0.86) {
        const o = pick(organizers);
        return rand() < 0.5
          ? ['trash organizer', () => api.del(`/organizers/${o}`, { token: editor })]
          : [
              'restore organizer',
              () => api.patch(`/organizers/${o}`, { status: 'publish' }, { token: editor }),
            ];
      }
      if (r < 0.9)
        return ['draft event', () => api.patch(`/events/${e}`, { status: 'draft' }, { token: editor })];
      if (r < 0.94) return ['delete event', () => api.del(`/events/${e}?force=true`, { token: editor })];
      if (r < 0.97) {
        const c = cats.at(-1)!;
        return ['delete category', () => api.del(`/categories/${c}`, { token: editor })];
      }
      const v = venues.at(-1)!;
      return ['delete venue', () => api.del(`/venues/${v}?force=true`, { token: editor })];
    });

    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < ops.length) {
          const [name, op] = ops[next++]!;
          const res = await op();
          const key = `${name} ${res.status}${res.status >= 400 ? ` ${res.body?.code}` : ''}`;
          statuses.set(key, (statuses.get(key) ?? 0) + 1);
        }
      }),
    );
  }, 240_000);

  it('answers every operation with a success or a 4xx that says why, never a 5xx', () => {
    const errors = [...statuses].filter(([key]) => / 5\d\d/.test(key));

    expect(errors).toEqual([]);
  });

  it('leaves every term count equal to a recount of the events, for editors and visitors', async () => {
    const all = await api.get(
      `/events?include=${events.join(',')}&status=publish,draft,pending,private,trash&per_page=50`,
      { token: editor },
    );
    expect(all.status).toBe(200);
    const live = (all.body.events as Rec[]).filter((e) => e.status === 'publish' || e.status === 'private');
    const problems: string[] = [];
    for (const [kind, list] of [
      ['categories', cats],
      ['tags', tags],
    ] as const) {
      for (const id of list) {
        const linked = live.filter((e) => (e[kind] as Rec[]).some((t) => t.id === id));
        const asEditor = await api.get(`/${kind}/${id}`, { token: editor });
        if (asEditor.status === 404) continue; // deleted by the run
        const asVisitor = await api.get(`/${kind}/${id}`);
        if (asEditor.body.count !== linked.length)
          problems.push(`${kind} ${id}: count ${asEditor.body.count} for editors, recount ${linked.length}`);
        const published = linked.filter((e) => e.status === 'publish').length;
        if (asVisitor.body.count !== published)
          problems.push(`${kind} ${id}: count ${asVisitor.body.count} for visitors, recount ${published}`);
      }
    }

    expect(problems).toEqual([]);
  });

  it('leaves every venue and organizer link the same from both sides', async () => {
    const all = await api.get(
      `/events?include=${events.join(',')}&status=publish,draft,pending,private,trash&per_page=50`,
      { token: editor },
    );
    const problems: string[] = [];
    for (const [kind, param, list] of [
      ['venues', 'venue', venues],
      ['organizers', 'organizer', organizers],
    ] as const) {
      for (const id of list) {
        const record = await api.get(`/${kind}/${id}`, { token: editor });
        const embedding = ids(
          (all.body.events as Rec[]).filter((e) => [e[param]].flat().some((x: Rec) => x?.id === id)),
        );
        if (record.status === 404) {
          if (embedding.length > 0) problems.push(`deleted ${param} ${id} still on events ${embedding}`);
          continue;
        }
        // Events are filtered by trashed records for nobody: restored, it filters to the events it is on.
        if (record.body.status === 'trash') {
          const restored = await api.patch(`/${kind}/${id}`, { status: 'publish' }, { token: editor });
          if (restored.status !== 200) problems.push(`${param} ${id}: restore answered ${restored.status}`);
        }
        const filtered = await api.get(
          `/events?${param}=${id}&include=${events.join(',')}&status=publish,draft,pending,private,trash&per_page=50`,
          { token: editor },
        );
        const byFilter = filtered.status === 200 ? ids(filtered.body.events) : [filtered.status];
        if (byFilter.join() !== embedding.join())
          problems.push(`${param} ${id}: events by filter ${byFilter}, by embedding ${embedding}`);
      }
    }

    expect(problems).toEqual([]);
  });
});
