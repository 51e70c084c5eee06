import type { EventData, EventRecord } from '../../domain/event-record';
import { notFound, slugNotFound } from '../../domain/errors';
import { assertReadable } from '../../domain/post-rules';
import { eventBySlugIndex } from '../../repositories/events';
import { getPost, getPostBySlug } from '../../repositories/posts';
import type { Caller, Ref } from '../common';
import { type EventView, presentEvent } from './view';

/** The event a path names; unknown IDs and slugs (and other types' IDs) are not found. */
export async function loadEvent(ref: Ref): Promise<EventRecord> {
  const event =
    'id' in ref ? await getPost<EventData>(ref.id) : await getPostBySlug<EventData>('event', ref.slug);
  if (!event || event.type !== 'event')
    throw 'id' in ref ? notFound('event', ref.id) : slugNotFound('event', ref.slug);
  return event as EventRecord;
}

/**
 * GET /events/{id} and /events/by-slug/{slug}: the event with json_ld, if the caller may see it. Two
 * round trips: the record (by slug through the slug index, the guard only when the index has not
 * caught up), then what it links to.
 */
export async function getEvent(ref: Ref, ctx: Caller): Promise<EventView> {
  return presentEvent(await readableEvent(ref, ctx), ctx, true);
}

/** The record of the event a path names, if the caller may see it (getEvent's first round trip). */
export async function readableEvent(ref: Ref, ctx: Caller): Promise<EventRecord> {
  const event = ('slug' in ref ? await eventBySlugIndex(ref.slug) : undefined) ?? (await loadEvent(ref));
  assertReadable('event', event, ctx.user);
  return event;
}
