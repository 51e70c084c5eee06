import { decodeHTML } from 'entities';
import { expect } from 'vitest';
import type { CalClient } from '../../client/src';
import type { SiteSource } from '../../import-export/src/site-source';
import type { ImportState } from '../../import-export/src/state';

/**
 * Every record a site import read, compared with what it became at the target, field by field (the
 * fields the importer carries), links compared by slug. `source` holds the records as the source
 * answered them: the reference answers titles, names and an event's website with HTML entities
 * (`Rock &#038; Roll`), which the copy keeps decoded (issue 40).
 */

type Rec = Record<string, any> & { id: number };
export type SourceRecords = Record<'events' | 'venues' | 'organizers' | 'categories' | 'tags', Rec[]>;

const pick = (r: Rec, fields: string[]) => Object.fromEntries(fields.map((f) => [f, r[f] ?? '']));
const slugs = (list: unknown) =>
  (Array.isArray(list) ? list : list && typeof list === 'object' ? [list] : [])
    .map((x: Rec) => x.slug as string)
    .sort();
const imageUrl = (v: unknown) => (typeof v === 'string' ? v : ((v as Rec | null)?.url ?? null));

const VENUE = [
  'venue',
  'slug',
  'status',
  'description',
  'address',
  'city',
  'country',
  'province',
  'state',
  'zip',
  'phone',
  'website',
  'show_map',
  'show_map_link',
];
const ORGANIZER = ['organizer', 'slug', 'status', 'description', 'phone', 'website', 'email'];
const EVENT = [
  'title',
  'slug',
  'status',
  'description',
  'excerpt',
  'start_date',
  'end_date',
  'timezone',
  'all_day',
  'cost',
  'featured',
  'sticky',
  'hide_from_listings',
  'show_map',
  'show_map_link',
];

/** Every record of the source, as the importer reads it. */
export async function readAll(source: SiteSource): Promise<SourceRecords> {
  const out = {} as SourceRecords;
  for (const c of ['categories', 'tags', 'venues', 'organizers', 'events'] as const) {
    out[c] = [];
    for await (const page of source.pages(c)) out[c].push(...page.records);
  }
  return out;
}

const decoded = (r: Rec, fields: string[]): Rec => ({
  ...r,
  ...Object.fromEntries(fields.map((f) => [f, typeof r[f] === 'string' ? decodeHTML(r[f]) : r[f]])),
});

export async function expectImported(
  answered: SourceRecords,
  target: CalClient,
  state: ImportState,
): Promise<void> {
  const source: SourceRecords = {
    categories: answered.categories.map((c) => decoded(c, ['name'])),
    tags: answered.tags.map((t) => decoded(t, ['name'])),
    venues: answered.venues.map((v) => decoded(v, ['venue'])),
    organizers: answered.organizers.map((o) => decoded(o, ['organizer'])),
    events: answered.events.map((e) => decoded(e, ['title', 'website'])),
  };
  const id = (collection: string, r: Rec) => {
    const entry = state.records[`${collection}:${r.id}`];
    expect(entry, `${collection} ${r.id} is in the state`).toBeDefined();
    return entry!.id;
  };
  const parentSlug = new Map(source.categories.map((c) => [c.id, c.slug]));
  for (const c of source.categories) {
    const { data } = await target.getCategory({ path: { id: id('categories', c) } });
    expect(pick(data, ['name', 'slug', 'description'])).toEqual(pick(c, ['name', 'slug', 'description']));
    const parent = data.parent
      ? (await target.getCategory({ path: { id: data.parent } })).data.slug
      : undefined;
    expect(parent, `parent of ${c.slug}`).toBe(c.parent ? parentSlug.get(c.parent) : undefined);
  }
  for (const t of source.tags) {
    const { data } = await target.getTag({ path: { id: id('tags', t) } });
    expect(pick(data, ['name', 'slug', 'description'])).toEqual(pick(t, ['name', 'slug', 'description']));
  }
  for (const v of source.venues) {
    const { data } = await target.getVenue({ path: { id: id('venues', v) } });
    expect(pick(data, VENUE)).toEqual(pick(v, VENUE));
    expect([data.geo_lat ?? null, data.geo_lng ?? null]).toEqual([v.geo_lat ?? null, v.geo_lng ?? null]);
  }
  for (const o of source.organizers) {
    const { data } = await target.getOrganizer({ path: { id: id('organizers', o) } });
    expect(pick(data, ORGANIZER)).toEqual(pick(o, ORGANIZER));
  }
  for (const e of source.events) {
    const { data } = await target.getEvent({ path: { id: id('events', e) } });
    // WordPress gives drafts no slug; this service makes one from the title.
    // Equal after entity decoding: the sanitizer writes `&mdash;` as the character it names.
    expect(
      { ...pick(data, EVENT), description: decodeHTML(data.description ?? '') },
      `event ${e.id} ${e.title}`,
    ).toEqual({
      ...pick(e, EVENT),
      description: decodeHTML(e.description ?? ''),
      slug: e.slug || data.slug,
    });
    expect(imageUrl(data.image)).toBe(imageUrl(e.image));
    // The reference names the event's own page as its website when it has none.
    expect(data.website === data.url ? '' : data.website).toBe(e.website === e.url ? '' : e.website);
    expect(slugs(data.categories)).toEqual(slugs(e.categories));
    // The same tags as the source's: where a copy came from is not public (no origin tag).
    expect(slugs(data.tags)).toEqual(slugs(e.tags));
    expect(slugs(data.venue)).toEqual(slugs(e.venue));
    expect(slugs(data.organizer)).toEqual(slugs(e.organizer));
  }
}

/** Names of linked records (terms by name, venues and organizers by their name field), sorted. */
const names = (list: unknown, field: string) =>
  (Array.isArray(list) ? list : list && typeof list === 'object' ? [list] : [])
    .map((x: Rec) => String(x[field] ?? ''))
    .filter(Boolean)
    .sort();

/**
 * What a calendar-to-calendar copy keeps of an event (a CSV round trip: links by name, the website
 * as written), of a venue (the state or province shown, as the CSV's one column holds it) and of an
 * organizer.
 */
export const comparableEvent = (e: Rec): Record<string, unknown> => ({
  ...pick(e, [...EVENT, 'website']),
  image: imageUrl(e.image),
  categories: names(e.categories, 'name'),
  tags: names(e.tags, 'name'),
  venue: names(e.venue, 'venue'),
  organizer: names(e.organizer, 'organizer'),
});
export const comparableVenue = (v: Rec): Record<string, unknown> => ({
  ...pick(
    v,
    VENUE.filter((f) => f !== 'state' && f !== 'province'),
  ),
  stateprovince: v.stateprovince || v.state || v.province || '',
  image: imageUrl(v.image),
  geo: [v.geo_lat ?? null, v.geo_lng ?? null],
});
export const comparableOrganizer = (o: Rec): Record<string, unknown> => ({
  ...pick(o, ORGANIZER),
  image: imageUrl(o.image),
});

const bySlug = (a: Rec, b: Rec) => String(a.slug).localeCompare(String(b.slug));

/** Every list of a calendar (every status, events hidden from listings too), as a copy must keep it. */
export async function everyList(client: CalClient) {
  const all = async <T extends Rec>(pages: AsyncIterable<T>) => {
    const out: T[] = [];
    for await (const r of pages) out.push(r);
    return out.sort(bySlug);
  };
  const status = ['publish', 'future', 'draft', 'pending', 'private'] as const;
  const events = [];
  for (const hidden of [false, true])
    events.push(
      ...(await all(
        client.items('listEvents', {
          query: {
            start_date: '1970-01-01',
            end_date: '2199-12-31',
            status: [...status],
            per_page: 50,
            ...(hidden ? { hide_from_listings: true } : {}),
          },
        }) as AsyncIterable<Rec>,
      )),
    );
  const terms = (list: Rec[]) => list.map((t) => t.name as string).sort();
  return {
    categories: terms(
      await all(client.items('listCategories', { query: { hide_empty: false } }) as AsyncIterable<Rec>),
    ),
    tags: terms(await all(client.items('listTags', { query: { hide_empty: false } }) as AsyncIterable<Rec>)),
    venues: (
      await all(client.items('listVenues', { query: { status: [...status] } }) as AsyncIterable<Rec>)
    ).map(comparableVenue),
    organizers: (
      await all(client.items('listOrganizers', { query: { status: [...status] } }) as AsyncIterable<Rec>)
    ).map(comparableOrganizer),
    events: events.sort(bySlug).map(comparableEvent),
  };
}
