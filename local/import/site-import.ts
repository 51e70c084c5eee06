import { CalApiError } from '../../client/src';
import { LIVE_STATUSES } from '../../shared/domain/statuses';
import type { ApiClient } from '../seed';
import { pool } from '../seed';
import type { Progress } from './progress';
import { categoryBody, eventBody, type Links, organizerBody, tagBody, venueBody } from './site-records';
import type { Collection, SiteSource, SourceRecord } from './site-source';
import type { ImportState } from './state';
import { type Report, upserter } from './upsert';

/**
 * `npm run import -- site`: every category (parents first), tag, venue, organizer and event of the
 * source, written through this service's API in that order, so that each event's links are known.
 *
 * Where the origin is kept: each imported event carries a tag naming its source site and ID
 * (`from example.org #19`, slug `from-example-org-19`), so `GET /events?tags=from-example-org-19` finds
 * it and the tag list shows what came from where; the state file maps every record (terms, venues and
 * organizers too). Without the state file, events are found again by that tag, venues and organizers
 * by slug and name, and terms by name (a create answered `term_exists` names the term).
 */

export interface SiteImportOptions {
  source: SiteSource;
  api: ApiClient;
  state: ImportState;
  dryRun: boolean;
  progress: Progress;
  concurrency?: number;
  /** Called after each page, to save the state. */
  checkpoint(): void;
}

/** The tag naming an event's origin: its name and slug. */
export function originTag(site: string, id: number): { name: string; slug: string } {
  const key = site.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
  return { name: `from ${site} #${id}`, slug: `from-${key}-${id}` };
}

/** A create's answer: the new ID, or the first answer's again when the same key and body were sent before. */
const made = (reply: { data: { id: number }; headers: Headers }) =>
  reply.headers.get('idempotent-replayed') === 'true' ? { replayed: reply.data.id } : reply.data.id;

/** A term's create; an existing term with the same name (`term_exists` names it) is that record, updated. */
async function createTerm(
  create: () => Promise<{ data: { id: number }; headers: Headers }>,
  update: (id: number) => Promise<unknown>,
): Promise<number | { adopted: number } | { replayed: number }> {
  try {
    return made(await create());
  } catch (e) {
    const id = e instanceof CalApiError && (e.body.data as { term_id?: unknown }).term_id;
    if (!(e instanceof CalApiError && e.code === 'term_exists' && typeof id === 'number')) throw e;
    await update(id);
    return { adopted: id };
  }
}

/** Categories ordered so that each comes after its parent. */
function parentsFirst(categories: SourceRecord[]): SourceRecord[] {
  const byId = new Map(categories.map((c) => [c.id, c]));
  const depth = (c: SourceRecord, seen = 0): number => {
    const parent = byId.get(Number(c.parent));
    return parent && seen < 50 ? 1 + depth(parent, seen + 1) : 0;
  };
  return [...categories].sort((a, b) => depth(a) - depth(b));
}

export async function importSite(o: SiteImportOptions): Promise<Report> {
  const { source, api, state, dryRun } = o;
  const concurrency = o.concurrency ?? 8;
  const u = upserter(state, source.site, dryRun);
  const ids = new Map<string, number>();
  const target = (collection: Collection, id: number) => ids.get(`${collection}:${id}`);
  const links: Links = {
    category: (id) => target('categories', id),
    tag: (id) => target('tags', id),
    venue: (id) => target('venues', id),
    organizer: (id) => target('organizers', id),
  };

  async function each(
    collection: Collection,
    write: (r: SourceRecord) => Promise<{ id?: number }>,
    order: (rs: SourceRecord[]) => SourceRecord[][] = (rs) => [rs],
  ) {
    let done = 0;
    let first = true;
    // Categories are read whole first (a child may come before its parent); the rest page by page.
    const batches: SourceRecord[][] = [];
    const run = async (records: SourceRecord[]) => {
      for (const level of order(records))
        await pool(level, concurrency, async (r) => {
          const { id } = await write(r);
          if (id !== undefined) ids.set(`${collection}:${r.id}`, id);
          o.progress.tick(++done, u.counts(collection));
        });
      o.checkpoint();
    };
    for await (const page of source.pages(collection)) {
      if (first) o.progress.phase(collection, page.total);
      first = false;
      if (collection === 'categories') batches.push(page.records);
      else await run(page.records);
    }
    if (first) o.progress.phase(collection, 0);
    if (batches.length) await run(batches.flat());
  }

  await each(
    'categories',
    (c) => {
      const parentSource = Number(c.parent) || 0;
      const body = categoryBody(c, parentSource ? (links.category(parentSource) ?? 0) : 0);
      return u.upsert('categories', c.id, String(c.name), body, {
        create: (b, idempotencyKey) =>
          createTerm(
            () => api.createCategory({ body: b, idempotencyKey }),
            (id) => api.updateCategory({ path: { id }, body: b }),
          ),
        update: (id, b) => api.updateCategory({ path: { id }, body: b }),
      });
    },
    (rs) => {
      // Level by level: a child's parent ID is known when it is written.
      const sorted = parentsFirst(rs);
      const levels: SourceRecord[][] = [];
      const byId = new Map(rs.map((c) => [c.id, c]));
      const level = new Map<number, number>();
      for (const c of sorted) {
        const p = Number(c.parent);
        const l = byId.has(p) ? (level.get(p) ?? 0) + 1 : 0;
        level.set(c.id, l);
        (levels[l] ??= []).push(c);
      }
      return levels.filter(Boolean);
    },
  );

  await each('tags', (t) =>
    u.upsert('tags', t.id, String(t.name), tagBody(t), {
      create: (b, idempotencyKey) =>
        createTerm(
          () => api.createTag({ body: b, idempotencyKey }),
          (id) => api.updateTag({ path: { id }, body: b }),
        ),
      update: (id, b) => api.updateTag({ path: { id }, body: b }),
    }),
  );

  const withoutSlug = <B extends { slug?: string }>({ slug: _slug, ...rest }: B) => rest as B;
  /** A record at the target with the source's slug and name: the one an earlier import made. */
  const sameSlugAndName = async (
    get: () => Promise<{ data: Record<string, unknown> & { id: number } }>,
    field: string,
    name: string,
  ) => {
    try {
      const { data } = await get();
      return data[field] === name ? data.id : undefined;
    } catch (e) {
      if (e instanceof CalApiError && e.status === 404) return undefined;
      throw e;
    }
  };
  /**
   * Venues and organizers get a slug made from their name when created: the source's is given to them
   * after, by a rename, when it differs and no other record holds it (else the made one stays).
   */
  const keepSlug = async (
    made: { id: number; slug: string },
    wanted: string,
    rename: () => Promise<unknown>,
  ) => {
    if (!wanted || made.slug === wanted) return made.id;
    try {
      await rename();
    } catch (e) {
      if (!(e instanceof CalApiError && e.status === 400)) throw e;
    }
    return made.id;
  };

  await each('venues', (v) => {
    const body = venueBody(v);
    const slug = String(v.slug ?? '');
    return u.upsert('venues', v.id, body.venue, body, {
      create: async (b, idempotencyKey) => {
        const reply = await api.createVenue({ body: b, idempotencyKey });
        const { data } = reply;
        if (typeof made(reply) !== 'number') return made(reply);
        return keepSlug(data, slug, () =>
          api.updateVenueBySlug({ path: { slug: data.slug }, body: { slug } }),
        );
      },
      update: (id, b) => api.updateVenue({ path: { id }, body: b }),
      find: slug
        ? () => sameSlugAndName(() => api.getVenueBySlug({ path: { slug } }), 'venue', body.venue)
        : undefined,
    });
  });

  await each('organizers', (org) => {
    const body = organizerBody(org);
    const slug = String(org.slug ?? '');
    return u.upsert('organizers', org.id, body.organizer, body, {
      create: async (b, idempotencyKey) => {
        const reply = await api.createOrganizer({ body: b, idempotencyKey });
        const { data } = reply;
        if (typeof made(reply) !== 'number') return made(reply);
        return keepSlug(data, slug, () =>
          api.updateOrganizerBySlug({ path: { slug: data.slug }, body: { slug } }),
        );
      },
      update: (id, b) => api.updateOrganizer({ path: { id }, body: b }),
      find: slug
        ? () => sameSlugAndName(() => api.getOrganizerBySlug({ path: { slug } }), 'organizer', body.organizer)
        : undefined,
    });
  });

  await each('events', async (e) => {
    const origin = originTag(source.site, e.id);
    const marker = await u.upsert('origin tags', e.id, origin.name, origin, {
      // Its name is made from the origin alone: one that exists is this event's, from an earlier run.
      // So a create sent twice answers `term_exists` with it, and needs no Idempotency-Key (whose
      // record would be two more writes per event).
      create: (b) =>
        createTerm(
          () => api.createTag({ body: b }),
          async () => undefined,
        ),
      update: (id, b) => api.updateTag({ path: { id }, body: b }),
    });
    const { body, missing } = eventBody(e, links, marker.id);
    for (const m of missing)
      u.report.notes.push({
        record: `events:${e.id} ${JSON.stringify(body.title)}`,
        note: `imported without its ${m.what} ${m.id} (skipped or not readable at the source)`,
      });
    return u.upsert('events', e.id, body.title, body, {
      create: async (b, idempotencyKey) => made(await api.createEvent({ body: b, idempotencyKey })),
      update: (id, b) => api.updateEvent({ path: { id }, body: b }),
      forUpdate: withoutSlug,
      find: async () => {
        // A tag made just now carries no event yet.
        if (marker.id === undefined || marker.id < 0 || marker.outcome === 'created') return undefined;
        const { data } = await api.listEvents({
          query: {
            tags: [marker.id],
            status: [...LIVE_STATUSES],
            start_date: '1970-01-01',
            end_date: '2199-12-31',
            per_page: 1,
          },
        });
        return data.events[0]?.id;
      },
    });
  });
  o.progress.end();
  return u.report;
}
