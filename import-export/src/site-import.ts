import { CalApiError } from '../../client/src';
import { decodeHTML } from 'entities';
import { LIVE_STATUSES } from '../../shared/domain/statuses';
import { type ApiClient, pool } from './api-client';
import type { Progress } from './progress';
import { removedMarkup } from './removed-markup';
import { categoryBody, eventBody, type Links, organizerBody, tagBody, venueBody } from './site-records';
import type { Collection, SiteSource, SourceRecord } from './site-source';
import type { ImportState } from './state';
import { targetIndex } from './target-index';
import { type Report, type Upserter, upserter } from './upsert';

/**
 * `npm run import -- site`: every category (parents first), tag, venue, organizer and event of the
 * source, written through this service's API in that order, so that each event's links are known.
 *
 * Where the origin is kept: in the state file only (source record -> target ID and body digest), never
 * in the copy's public data. Without the state file, records are found again at the target by their
 * kept slug and their name (entities decoded), events by slug or title with their start (target-index.ts).
 * A record the state knows that the source no longer lists was trashed or deleted there: it is moved
 * to the trash in the copy (`noDeletes` keeps it).
 */

export interface SiteImportOptions {
  source: SiteSource;
  api: ApiClient;
  state: ImportState;
  dryRun: boolean;
  progress: Progress;
  concurrency?: number;
  /** Keep copies of records the source no longer lists (by default they are moved to the trash). */
  noDeletes?: boolean;
  /** Called after each page, to save the state. */
  checkpoint(): void;
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

type Found = { id: number; slug?: string } & Record<string, unknown>;

export async function importSite(o: SiteImportOptions): Promise<Report> {
  const { source, api, state, dryRun } = o;
  const concurrency = o.concurrency ?? 8;
  const u = upserter(state, source.site, dryRun);
  const ids = new Map<string, number>();
  const seen = new Set<string>();
  const target = (collection: Collection, id: number) => ids.get(`${collection}:${id}`);
  const links: Links = {
    category: (id) => target('categories', id),
    tag: (id) => target('tags', id),
    venue: (id) => target('venues', id),
    organizer: (id) => target('organizers', id),
  };
  const every = () => ({ status: [...LIVE_STATUSES], per_page: 50 });
  const index = {
    categories: targetIndex(
      () =>
        api.items('listCategories', { query: { hide_empty: false, per_page: 100 } }) as AsyncIterable<Found>,
      (r) => String(r.slug),
      (r) => String(r.name),
    ),
    tags: targetIndex(
      () => api.items('listTags', { query: { hide_empty: false, per_page: 100 } }) as AsyncIterable<Found>,
      (r) => String(r.slug),
      (r) => String(r.name),
    ),
    venues: targetIndex(
      () => api.items('listVenues', { query: every() }) as AsyncIterable<Found>,
      (r) => String(r.slug),
      (r) => String(r.venue),
    ),
    organizers: targetIndex(
      () => api.items('listOrganizers', { query: every() }) as AsyncIterable<Found>,
      (r) => String(r.slug),
      (r) => String(r.organizer),
    ),
    events: targetIndex(
      async function* () {
        for (const hidden of [false, true])
          yield* api.items('listEvents', {
            query: {
              ...every(),
              start_date: '1900-01-01',
              end_date: '2199-12-31',
              ...(hidden ? { hide_from_listings: true } : {}),
            },
          }) as AsyncIterable<Found>;
      },
      (r) => String(r.slug),
      (r) => String(r.title),
    ),
  };
  const lookUp = async (
    collection: keyof typeof index,
    slug: string,
    name: string,
    match?: (r: Found) => boolean,
  ) => (await index[collection]()).find(slug, name, match);

  async function each(
    collection: Collection,
    write: (r: SourceRecord) => Promise<{ id?: number }>,
    order: (rs: SourceRecord[]) => SourceRecord[][] = (rs) => [rs],
    later: (r: SourceRecord) => boolean = () => false,
  ) {
    let done = 0;
    let first = true;
    // Categories are read whole first (a child may come before its parent); the rest page by page.
    const batches: SourceRecord[][] = [];
    const deferred: SourceRecord[] = [];
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
      for (const r of page.records) seen.add(`${collection}:${r.id}`);
      if (collection === 'categories') batches.push(page.records);
      else {
        deferred.push(...page.records.filter(later));
        await run(page.records.filter((r) => !later(r)));
      }
    }
    if (first) o.progress.phase(collection, 0);
    if (batches.length) await run(batches.flat());
    if (deferred.length) await run(deferred);
  }

  const findTerm = (collection: 'categories' | 'tags', slug: string, name: string) => async () =>
    (await lookUp(collection, slug, name))?.id;

  await each(
    'categories',
    (c) => {
      const parentSource = Number(c.parent) || 0;
      const body = categoryBody(c, parentSource ? (links.category(parentSource) ?? 0) : 0);
      return u.upsert('categories', c.id, body.name, body, {
        create: (b, idempotencyKey) =>
          createTerm(
            () => api.createCategory({ body: b, idempotencyKey }),
            (id) => api.updateCategory({ path: { id }, body: b }),
          ),
        update: (id, b) => api.updateCategory({ path: { id }, body: b }),
        find: findTerm('categories', body.slug ?? '', body.name),
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

  await each('tags', (t) => {
    const body = tagBody(t);
    return u.upsert('tags', t.id, body.name, body, {
      create: (b, idempotencyKey) =>
        createTerm(
          () => api.createTag({ body: b, idempotencyKey }),
          (id) => api.updateTag({ path: { id }, body: b }),
        ),
      update: (id, b) => api.updateTag({ path: { id }, body: b }),
      find: findTerm('tags', body.slug ?? '', body.name),
    });
  });

  const withoutSlug = <B extends { slug?: string }>({ slug: _slug, ...rest }: B) => rest as B;
  /**
   * Venues and organizers get a slug made from their name when created: the source's is given to them
   * after, by a rename, when it differs; a rename refused (another record holds it) is reported.
   */
  const keepSlug = async (
    label: string,
    made: { id: number; slug: string },
    wanted: string,
    rename: () => Promise<unknown>,
  ) => {
    if (!wanted || made.slug === wanted) return made.id;
    try {
      await rename();
    } catch (e) {
      if (!(e instanceof CalApiError && e.status === 400)) throw e;
      u.report.notes.push({
        record: label,
        note: `kept the slug ${made.slug}: the source's ${wanted} was refused (${e.code}: ${e.message})`,
      });
    }
    return made.id;
  };
  const sameText = (a: unknown, b: string) => decodeHTML(String(a ?? '')) === b;

  await each('venues', (v) => {
    const body = venueBody(v);
    const slug = String(v.slug ?? '');
    const label = `venues:${v.id} ${JSON.stringify(body.venue)}`;
    return u.upsert('venues', v.id, body.venue, body, {
      create: async (b, idempotencyKey) => {
        const reply = await api.createVenue({ body: b, idempotencyKey });
        const { data } = reply;
        if (typeof made(reply) !== 'number') return made(reply);
        return keepSlug(label, data, slug, () =>
          api.updateVenueBySlug({ path: { slug: data.slug }, body: { slug } }),
        );
      },
      update: (id, b) => api.updateVenue({ path: { id }, body: b }),
      find: async () => (await lookUp('venues', slug, body.venue, (r) => sameText(r.venue, body.venue)))?.id,
    });
  });

  await each('organizers', (org) => {
    const body = organizerBody(org);
    const slug = String(org.slug ?? '');
    const label = `organizers:${org.id} ${JSON.stringify(body.organizer)}`;
    return u.upsert('organizers', org.id, body.organizer, body, {
      create: async (b, idempotencyKey) => {
        const reply = await api.createOrganizer({ body: b, idempotencyKey });
        const { data } = reply;
        if (typeof made(reply) !== 'number') return made(reply);
        return keepSlug(label, data, slug, () =>
          api.updateOrganizerBySlug({ path: { slug: data.slug }, body: { slug } }),
        );
      },
      update: (id, b) => api.updateOrganizer({ path: { id }, body: b }),
      find: async () =>
        (await lookUp('organizers', slug, body.organizer, (r) => sameText(r.organizer, body.organizer)))?.id,
    });
  });

  await each(
    'events',
    async (e) => {
      const { body, missing } = eventBody(e, links);
      const label = `events:${e.id} ${JSON.stringify(body.title)}`;
      for (const m of missing)
        u.report.notes.push({
          record: label,
          note: `imported without its ${m.what} ${m.id} (skipped or not readable at the source)`,
        });
      const sanitized = (stored: unknown) => {
        for (const note of removedMarkup(body.description ?? '', String(stored ?? '')))
          u.report.notes.push({ record: label, note: `description: ${note}` });
      };
      return u.upsert('events', e.id, body.title, body, {
        create: async (b, idempotencyKey) => {
          const reply = await api.createEvent({ body: b, idempotencyKey });
          sanitized(reply.data.description);
          return made(reply);
        },
        update: async (id, b) =>
          sanitized((await api.updateEvent({ path: { id }, body: b })).data.description),
        forUpdate: withoutSlug,
        find: async () =>
          (
            await lookUp(
              'events',
              body.slug ?? '',
              body.title,
              (r) => r.title === body.title && (Boolean(body.slug) || r.start_date === body.start_date),
            )
          )?.id,
      });
    },
    undefined,
    // WordPress gives drafts no slug: written after every record that has one, so that a slug this
    // service makes for a draft from its title never takes a published namesake's.
    (e) => !e.slug,
  );

  await dropOriginTags(api, state, dryRun);
  if (!o.noDeletes) await trashUnlisted(api, state, seen, u, dryRun);
  o.checkpoint();
  o.progress.end();
  return u.report;
}

/** The public `from <site> #<id>` tags earlier versions added to each event: no longer kept. */
async function dropOriginTags(api: ApiClient, state: ImportState, dryRun: boolean) {
  for (const [key, { id }] of Object.entries(state.records)) {
    if (!key.startsWith('origin tags:')) continue;
    if (dryRun) continue;
    await api.deleteTag({ path: { id } }).catch((e: unknown) => {
      if (!(e instanceof CalApiError && (e.status === 404 || e.status === 410))) throw e;
    });
    delete state.records[key];
  }
}

const TRASHABLE = {
  events: (api: ApiClient, id: number) => api.deleteEvent({ path: { id } }),
  venues: (api: ApiClient, id: number) => api.deleteVenue({ path: { id } }),
  organizers: (api: ApiClient, id: number) => api.deleteOrganizer({ path: { id } }),
};

/**
 * A record an earlier run copied that the source lists no more was trashed or deleted there (or, read
 * without credentials, is no longer published): its copy goes to the trash, and leaves the state.
 */
async function trashUnlisted(
  api: ApiClient,
  state: ImportState,
  seen: Set<string>,
  u: Upserter,
  dryRun: boolean,
) {
  for (const [key, { id }] of Object.entries(state.records)) {
    const collection = key.slice(0, key.indexOf(':')) as keyof typeof TRASHABLE;
    if (!(collection in TRASHABLE) || seen.has(key)) continue;
    if (!dryRun)
      await TRASHABLE[collection](api, id).catch((e: unknown) => {
        if (!(e instanceof CalApiError && (e.status === 404 || e.status === 410))) throw e;
      });
    u.trashed(collection, key);
    if (!dryRun) delete state.records[key];
  }
}
