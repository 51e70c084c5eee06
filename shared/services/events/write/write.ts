import { parseCostInput } from '../../../domain/cost';
import { nowStamps } from '../../../domain/clock';
import { invalidParam } from '../../../domain/errors';
import {
  type EventData,
  type EventRecord,
  linkId,
  linksOf,
  linkWeight,
  MAX_LINKED_RECORDS,
  termsRecounted,
} from '../../../domain/event-record';
import { resolveEventTimes } from '../../../domain/event-times';
import { assertCanEdit, scheduledStatus, statusOnWrite } from '../../../domain/post-rules';
import { assertMeets } from '../../../domain/revisions';
import { publishedAt } from '../../../domain/published-at';
import { atLeast, type User } from '../../../domain/roles';
import { slugify } from '../../../domain/slugs';
import { plainText, safeHtml } from '../../../domain/text';
import { httpUrl, imageUrl } from '../../../domain/web-input';
import type { LinkKind, PostRecord, PostType } from '../../../domain/records';
import type { PlannedWrite } from '../../../repositories/unit-of-work';
import { goneLinkTargets } from '../../../repositories/events';
import { eventWrites } from '../../../repositories/event-writes';
import { createPost, statusTotals, updatePost } from '../../../repositories/posts';
import { syncTermsInUse } from '../../../repositories/term-use';
import type { Infer } from '../../../schemas/infer';
import type { eventUpdateBody } from '../../../schemas/event';
import { allInOrder } from '../../common';
import { type Ref, retryStale, staleError, type Writer } from '../../common';
import { linkedGone, parentsFor } from '..';
import { loadEvent } from '..';
import type { Scope, SeriesHook, SeriesProgress } from '../../series';
import { type EventView, presentEvent } from '..';
import {
  checkLinks,
  linkReads,
  type PlannedRecord,
  ResolveAgain,
  resolveLinkedPosts,
  resolveTerms,
} from './links';

/** A create or update body, as the contract's schema types it (create bodies also require the dates). */
export type EventBody = Infer<typeof eventUpdateBody>;

function imageOf(value: string | number | null | undefined): string | undefined {
  return value === null || value === undefined || value === '' ? undefined : imageUrl('image', value);
}

/** The event a create or partial update produces; only the sent fields change (decisions §6). */
async function nextState(
  body: EventBody,
  sent: Set<string>,
  user: User,
  current: EventRecord | undefined,
  /** Links of `current` whose records are gone (they drop out of the event): read with the body's look-ups. */
  goneRead: Promise<Set<string>>,
): Promise<{ record: EventRecord; slugBase?: string; created: PlannedRecord[] }> {
  const has = (k: keyof EventBody) => sent.has(k) && body[k] !== undefined;
  const now = new Date();
  if (has('author') && !atLeast(user, 'editor'))
    throw invalidParam('author', 'Only editors and administrators may set author.', 'rest_cannot_set_author');
  let title = current?.title ?? '';
  if (has('title') || !current) {
    title = plainText(String(body.title ?? ''));
    if (!title)
      throw invalidParam('title', 'title must contain text once HTML is removed.', 'rest_too_short');
  }
  const times = await resolveEventTimes(
    {
      start_date: body.start_date,
      end_date: body.end_date,
      timezone: sent.has('timezone') ? (body.timezone ?? null) : undefined,
      all_day: body.all_day,
    },
    current?.data,
  );
  // `date` and `modified` are the site's local times, as the reference writes them (decisions §8).
  const dated = has('date') || has('date_utc') || !current;
  const dates = dated ? publishedAt(body, now) : { date: current.date, date_utc: current.date_utc };
  const prev = current?.data;
  const flag = (
    k: 'show_map' | 'show_map_link' | 'hide_from_listings' | 'sticky' | 'featured',
    old: boolean | undefined,
  ) => (sent.has(k) ? body[k] === true : (old ?? false));
  const reads = linkReads();
  await checkLinks(body, sent, user, reads); // the cheap 400s of every link parameter first
  const gone = await goneRead;
  const created: PlannedRecord[] = [];
  const kept = (kind: LinkKind, ids: number[] | undefined) =>
    (ids ?? []).filter((id) => !gone.has(`${kind}#${id}`));
  const data: EventData = {
    ...times,
    cost: sent.has('cost') ? parseCostInput(body.cost) : (prev?.cost ?? parseCostInput(undefined)),
    website: sent.has('website') ? websiteOf(body.website, !current) : prev?.website,
    showMap: flag('show_map', prev?.showMap),
    showMapLink: flag('show_map_link', prev?.showMapLink),
    hideFromListings: flag('hide_from_listings', prev?.hideFromListings),
    sticky: flag('sticky', prev?.sticky),
    featured: flag('featured', prev?.featured),
    image: sent.has('image') ? imageOf(body.image) : prev?.image,
    categories: sent.has('categories')
      ? await resolveTerms('categories', body.categories ?? null, user, created, reads)
      : kept('TERM', prev?.categories),
    tags: sent.has('tags')
      ? await resolveTerms('tags', body.tags ?? null, user, created, reads)
      : kept('TERM', prev?.tags),
    venues: sent.has('venue')
      ? await resolveLinkedPosts('venue', body.venue, user, created, reads)
      : kept('VENUE', prev?.venues),
    organizers: sent.has('organizer')
      ? await resolveLinkedPosts('organizer', body.organizer, user, created, reads)
      : kept('ORGANIZER', prev?.organizers),
    ...(prev?.parent ? { parent: prev.parent } : {}),
    ...(prev?.series ? { series: prev.series } : {}),
  };
  if (data.image === undefined) delete data.image;
  if (data.website === undefined) delete data.website;
  const record: EventRecord = {
    ...(current ?? ({ id: 0, slug: '', version: 0, countPublic: 0, countAll: 0 } as EventRecord)),
    type: 'event',
    status: scheduledStatus(
      statusOnWrite(has('status') ? body.status : undefined, user, current?.status),
      dates.date_utc,
      now,
    ),
    author: has('author') ? String(body.author) : (current?.author ?? user.sub),
    title,
    description:
      has('description') || !current
        ? safeHtml(body.description ?? '', { embeds: atLeast(user, 'editor') })
        : current.description,
    excerpt: has('excerpt') || !current ? safeHtml(body.excerpt ?? '') : current.excerpt,
    ...dates,
    ...nowStamps(now),
    sortDate: times.start,
    sortEnd: times.end,
    data,
  };
  if (sent.has('description') && body.description === null) record.description = '';
  // A sent slug goes through the same rule; one that leaves nothing (`""`) names no slug, so a create
  // takes the title's (decisions §9) and an update keeps the current one.
  const sentSlug = has('slug') ? slugify(body.slug!) || undefined : undefined;
  const slugBase = sentSlug ?? (current ? undefined : slugify(title));
  checkLinkLimit(record);
  return { record, slugBase, created };
}

/** An event links at most MAX_LINKED_RECORDS records; the 400 names the field that goes past it. */
function checkLinkLimit(e: EventRecord): void {
  const links = linksOf(e);
  if (links.length <= MAX_LINKED_RECORDS) return;
  const field = links[MAX_LINKED_RECORDS]!.field;
  throw invalidParam(
    field,
    `An event links at most ${MAX_LINKED_RECORDS} records (categories, tags, venues and organizers together); this one would link ${links.length}.`,
    'rest_too_many_links',
  );
}

/** The items of the records an event write creates, and their types' status totals (one item each). */
function createdWrites(created: PlannedRecord[], event: EventRecord, slugs: string[]): PlannedWrite[] {
  const counts = linkWeight(event.status);
  const writes = created.flatMap((c, i) => c.build(slugs[i]!, counts, i + 1));
  const byStatus = new Map<string, { type: PostType; status: string; n: number }>();
  for (const c of created)
    if (c.post) {
      const key = `${c.post.type}|${c.post.status}`;
      const entry = byStatus.get(key) ?? { type: c.post.type, status: c.post.status, n: 0 };
      entry.n += 1;
      byStatus.set(key, entry);
    }
  // One status-total item per type: a transaction may touch an item only once.
  const perType = new Map<PostType, Array<{ status: string; n: number }>>();
  for (const { type, status, n } of byStatus.values())
    perType.set(type, [...(perType.get(type) ?? []), { status, n }]);
  for (const [type, list] of perType) writes.push(...statusTotals(type, list));
  return writes;
}

/**
 * Saves an event and everything that changes with it (links, counts, tallies and the records it
 * creates) as one write (decisions §6). A term created concurrently under a name this body uses is
 * found by resolving the body again.
 */
async function save(
  body: EventBody,
  sent: Set<string>,
  ctx: Writer,
  current?: EventRecord,
  series?: SeriesHook,
): Promise<Saved> {
  for (let attempt = 0; ; attempt++) {
    try {
      // The category taxonomy (for subtree tallies) and the link targets of an update are read
      // alongside the body's own look-ups.
      const parents = parentsFor(sent.has('categories') || (current?.data.categories.length ?? 0) > 0);
      const goneRead = current ? goneLinkTargets(current) : Promise.resolve(new Set<string>());
      // The body's 400s come first; every read settles before the answer.
      const [{ record, slugBase, created }, parentOf, gone] = await allInOrder([
        nextState(body, sent, ctx.user, current, goneRead),
        parents,
        goneRead,
      ] as const);
      if (current) {
        assertCanEdit(current, ctx.user);
        assertMeets(ctx.ifMatch, current, 'event');
      }
      // A series write sets the record's series fields (its 400s name `recurrence`) and adds its items.
      const presetId = await series?.prepare(record);
      const options = { created: new Set(created.map(linkId)), gone, linkedGone, parentOf };
      const extra = {
        claims: created.map((c) => c.claim),
        build: (saved: PostRecord<EventData>, slugs: string[]) => [
          ...createdWrites(created, saved as EventRecord, slugs),
          ...eventWrites(current, saved as EventRecord, options),
          ...(series?.writes(saved as EventRecord) ?? []),
        ],
      };
      const { id: _id, slug: _slug, version: _v, countPublic: _p, countAll: _a, ...fresh } = record;
      const saved = (
        current
          ? await updatePost<EventData>(current, record, staleError(ctx, 'event'), extra, slugBase)
          : await createPost<EventData>(fresh, slugBase ?? '', extra, ctx.creation, presetId)
      ) as EventRecord;
      return { saved, synced: syncTermsInUse(termsRecounted(current, saved)) };
    } catch (e) {
      if (e instanceof ResolveAgain && attempt < 2) continue;
      throw e;
    }
  }
}

/** The series code, loaded only for a series: it stays out of a single event's cold start (docs/cold-start.md). */
const seriesCode = () => import('../../series');

/**
 * POST /events: the new event as every event route shows it. With `recurrence`, the first occurrence
 * of a new series, whose other occurrences are written after it (services/series/series.ts).
 */
export async function createEvent(
  body: EventBody,
  sent: Set<string>,
  ctx: Writer,
  /** Told when a series' occurrences are not all written as the request answers (a 202, issue 38). */
  report?: (progress: SeriesProgress) => void,
): Promise<EventView> {
  const series = sent.has('recurrence')
    ? (await seriesCode()).creatingSeries(body.recurrence!, ctx, undefined, body.start_date)
    : undefined;
  const saved = await save(body, sent, ctx, undefined, series);
  const progress = await series?.finish(saved.saved);
  if (progress) report?.(progress);
  return present(saved, ctx);
}

/** A committed event write, and the sync of its terms' in-use flags (repositories/term-use.ts). */
interface Saved {
  saved: EventRecord;
  synced: Promise<void>;
}

/** The saved event as the routes show it, read while its terms are synced. */
async function present({ saved, synced }: Saved, ctx: Writer): Promise<EventView> {
  const [view] = await Promise.all([presentEvent(saved, ctx), synced]);
  return view;
}

/**
 * A partial update by ID or slug (decisions §6). Validation (400) comes before the ownership check
 * (403), as decisions §3 orders them; nothing is written before both pass.
 */
export async function updateEvent(
  ref: Ref,
  body: EventBody,
  sent: Set<string>,
  ctx: Writer,
  /** For an occurrence of a series: which occurrences change (docs/recurrence.md). */
  scope?: Scope,
  /** Told when the series' occurrences are not all written as the request answers (a 202, issue 38). */
  report?: (progress: SeriesProgress) => void,
): Promise<EventView> {
  const write = async () => {
    const loaded = await loadEvent(ref);
    const { current, hook } =
      loaded.data.series || scope !== undefined || sent.has('recurrence')
        ? await (await seriesCode()).updatingOccurrence(loaded, body, sent, scope, ctx, () => loadEvent(ref))
        : { current: loaded, hook: undefined };
    const saved = await save(body, sent, ctx, current, hook);
    const progress = await hook?.finish(saved.saved);
    if (progress) report?.(progress);
    return saved;
  };
  return present(await retryStale(ctx, write), ctx);
}

/**
 * The stored website of a sent `website`: null is none, and so is "" on create, so that the event's
 * page shows (decisions §9, as the reference, which writes no empty field on create); an update keeps
 * "" as sent (reference §8: the page no longer shows).
 */
function websiteOf(sent: string | null | undefined, creating: boolean): string | undefined {
  if (sent === null || sent === undefined) return undefined;
  if (sent === '') return creating ? undefined : '';
  return httpUrl('website', sent);
}
