import { DateTime } from 'luxon';
import { parseCostInput } from '../domain/cost';
import { siteZone, utcWall, wall } from '../domain/dates';
import { conflict, invalidParam, trashed } from '../domain/errors';
import type { EventData, EventRecord } from '../domain/event-record';
import { resolveEventTimes } from '../domain/event-times';
import { assertCanDelete, assertCanEdit, publicationDates, statusOnWrite } from '../domain/post-rules';
import { atLeast, type User } from '../domain/roles';
import { slugify } from '../domain/slugs';
import { plainText, safeHtml } from '../domain/text';
import { httpUrl, imageUrl } from '../domain/web-input';
import { MAX_TRANSACTION_ITEMS } from '../db/transact';
import { eventWrites } from '../repositories/event-writes';
import { createPost, deletePost, updatePost } from '../repositories/posts';
import type { Infer } from '../schemas/infer';
import type { eventUpdateBody } from '../schemas/event';
import type { Ref, Writer } from './context';
import { loadEvent } from './event-read';
import { type EventView, presentEvent } from './event-view';
import { checkLinks, resolveLinkedPosts, resolveTerms } from './event-links';

/** A create or update body, as the contract's schema types it (create bodies also require the dates). */
export type EventBody = Infer<typeof eventUpdateBody>;

const linkedGone = () =>
  invalidParam(
    'venue',
    'A linked record was deleted while the event was being saved; retry.',
    'rest_linked_gone',
  );
const stale = () => conflict('event');

function imageOf(value: string | number | null | undefined): string | undefined {
  return value === null || value === undefined || value === '' ? undefined : imageUrl('image', value);
}

/** The event a create or partial update produces; only the sent fields change (decisions §6). */
async function nextState(
  body: EventBody,
  sent: Set<string>,
  user: User,
  current?: EventRecord,
  /** Only validate: creates no term or inline venue / organizer (the links keep their current IDs). */
  dry = false,
): Promise<{ record: EventRecord; slugBase?: string }> {
  const has = (k: keyof EventBody) => sent.has(k) && body[k] !== undefined;
  const now = DateTime.now();
  if (has('author') && !atLeast(user, 'editor'))
    throw invalidParam('author', 'Only editors and administrators may set author.', 'rest_cannot_set_author');
  let title = current?.title ?? '';
  if (has('title') || !current) {
    title = plainText(String(body.title ?? ''));
    if (!title)
      throw invalidParam('title', 'title must contain text once HTML is removed.', 'rest_too_short');
  }
  const times = resolveEventTimes(
    {
      start_date: body.start_date,
      end_date: body.end_date,
      timezone: sent.has('timezone') ? (body.timezone ?? null) : undefined,
      all_day: body.all_day,
    },
    current?.data,
  );
  // `date` and `modified` are the site's local times, as the reference writes them (decisions §8).
  const dates =
    has('date') || has('date_utc') || !current
      ? publicationDates(body, siteZone(), now)
      : { date: current.date, date_utc: current.date_utc };
  const prev = current?.data;
  const flag = (
    k: 'show_map' | 'show_map_link' | 'hide_from_listings' | 'sticky' | 'featured',
    old: boolean | undefined,
  ) => (sent.has(k) ? body[k] === true : (old ?? false));
  await checkLinks(body, sent, user); // every reference's 400 before any term or inline record is created
  const data: EventData = {
    ...times,
    cost: sent.has('cost') ? parseCostInput(body.cost) : (prev?.cost ?? parseCostInput(undefined)),
    website: sent.has('website')
      ? body.website === null
        ? undefined
        : body.website === ''
          ? ''
          : httpUrl('website', body.website!)
      : prev?.website,
    showMap: flag('show_map', prev?.showMap),
    showMapLink: flag('show_map_link', prev?.showMapLink),
    hideFromListings: flag('hide_from_listings', prev?.hideFromListings),
    sticky: flag('sticky', prev?.sticky),
    featured: flag('featured', prev?.featured),
    image: sent.has('image') ? imageOf(body.image) : prev?.image,
    categories:
      sent.has('categories') && !dry
        ? await resolveTerms('categories', body.categories ?? null, user)
        : (prev?.categories ?? []),
    tags: sent.has('tags') && !dry ? await resolveTerms('tags', body.tags ?? null, user) : (prev?.tags ?? []),
    venues:
      sent.has('venue') && !dry ? await resolveLinkedPosts('venue', body.venue, user) : (prev?.venues ?? []),
    organizers:
      sent.has('organizer') && !dry
        ? await resolveLinkedPosts('organizer', body.organizer, user)
        : (prev?.organizers ?? []),
    ...(prev?.parent ? { parent: prev.parent } : {}),
  };
  if (data.image === undefined) delete data.image;
  if (data.website === undefined) delete data.website;
  const record: EventRecord = {
    ...(current ?? ({ id: 0, slug: '', version: 0, countPublic: 0, countAll: 0 } as EventRecord)),
    type: 'event',
    status: statusOnWrite(has('status') ? body.status : undefined, user, current?.status),
    author: has('author') ? String(body.author) : (current?.author ?? user.sub),
    title,
    description: has('description') || !current ? safeHtml(body.description ?? '') : current.description,
    excerpt: has('excerpt') || !current ? safeHtml(body.excerpt ?? '') : current.excerpt,
    ...dates,
    modified: wall(now.setZone(siteZone())),
    modified_utc: utcWall(now),
    sortDate: times.start,
    sortEnd: times.end,
    data,
  };
  if (sent.has('description') && body.description === null) record.description = '';
  const slugBase = has('slug') ? slugify(body.slug!) || undefined : current ? undefined : slugify(title);
  return { record, slugBase };
}

function checkSize(before: EventRecord | undefined, after: EventRecord | undefined): void {
  const n = eventWrites(before, after, linkedGone).length + 4;
  if (n > MAX_TRANSACTION_ITEMS)
    throw invalidParam(
      'categories',
      `The event links too many records to save atomically (${n} writes; at most ${MAX_TRANSACTION_ITEMS}).`,
      'rest_too_many_links',
    );
}

/** POST /events: the new event as every event route shows it. */
export async function createEvent(body: EventBody, sent: Set<string>, ctx: Writer): Promise<EventView> {
  const { record, slugBase } = await nextState(body, sent, ctx.user);
  checkSize(undefined, record);
  const { id: _id, slug: _slug, version: _v, countPublic: _p, countAll: _a, ...fresh } = record;
  const created = await createPost<EventData>(fresh, slugBase ?? '', (rec) =>
    eventWrites(undefined, rec as EventRecord, linkedGone),
  );
  return presentEvent(created as EventRecord, ctx);
}

/** A partial update by ID or slug (decisions §6). */
export async function updateEvent(
  ref: Ref,
  body: EventBody,
  sent: Set<string>,
  ctx: Writer,
): Promise<EventView> {
  const current = await loadEvent(ref);
  // Validation (400) comes before the ownership check (403), as decisions §3 orders them; the dry
  // pass creates no term or inline record, so a caller who may not edit the event changes nothing.
  await nextState(body, sent, ctx.user, current, true);
  assertCanEdit(current, ctx.user);
  const { record, slugBase } = await nextState(body, sent, ctx.user, current);
  checkSize(current, record);
  const saved = await updatePost<EventData>(
    current,
    record,
    stale,
    (rec) => eventWrites(current, rec as EventRecord, linkedGone),
    slugBase,
  );
  return presentEvent(saved as EventRecord, ctx);
}

/** Moves to the trash (the trashed event; gone when already there); `force` deletes for good. */
export async function removeEvent(ref: Ref, force: boolean, ctx: Writer): Promise<EventView> {
  const current = await loadEvent(ref);
  assertCanDelete(current, ctx.user, force);
  if (force) {
    const view = await presentEvent(current, ctx);
    await deletePost(current, stale, eventWrites(current, undefined, linkedGone));
    return view;
  }
  if (current.status === 'trash') throw trashed('event');
  const next: EventRecord = {
    ...current,
    status: 'trash',
    modified: wall(DateTime.now().setZone(siteZone())),
    modified_utc: utcWall(DateTime.now()),
  };
  const saved = await updatePost<EventData>(current, next, stale, (rec) =>
    eventWrites(current, rec as EventRecord, linkedGone),
  );
  return presentEvent(saved as EventRecord, ctx);
}
