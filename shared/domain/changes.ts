import { NAMESPACE_PATH, TICKETS_NAMESPACE } from '../config';
import { invalidParam } from './errors';
import { type EventData } from './event-record';
import { listStatuses, passesStatus } from './post-rules';
import type { PostRecord, PostType, Taxonomy } from './records';
import type { User } from './roles';

/**
 * The change feed's rules (GET /changes): what a change-log entry records, which callers see it and
 * as what, and the positions and cursors of the log. The log itself is written by the repositories in
 * the transaction of each write (repositories/changes.ts).
 */

export const CHANGE_RESOURCES = [
  'events',
  'venues',
  'organizers',
  'categories',
  'tags',
  'tickets',
  'attendees',
] as const;
export type ChangeResource = (typeof CHANGE_RESOURCES)[number];

export const CHANGE_ACTIONS = ['created', 'updated', 'removed', 'restored'] as const;
export type ChangeAction = (typeof CHANGE_ACTIONS)[number];

/** Entries live this long (the table's TTL): a cursor may point at most this far back. */
export const CHANGE_RETENTION_DAYS = 35;
const DAY_MS = 24 * 3600 * 1000;

/**
 * What decides who sees a record: its status and author, and for events whether lists hide it.
 * Terms have no status: every caller sees every term (`publish`).
 */
export interface ChangeState {
  status: string;
  author: string;
  hidden?: boolean;
}

/** One entry of the log: a record before and after one write (absent: it did not exist / is gone). */
export interface ChangeEntry {
  position: string;
  resource: ChangeResource;
  id: number;
  before?: ChangeState;
  after?: ChangeState;
  /** When the change happened, UTC `Y-m-d H:i:s` (the record's own modified_utc when it has one). */
  modified_utc: string;
}

const POST_RESOURCE: Record<PostType, ChangeResource> = {
  event: 'events',
  venue: 'venues',
  organizer: 'organizers',
};
const TERM_RESOURCE: Record<Taxonomy, ChangeResource> = { tribe_events_cat: 'categories', post_tag: 'tags' };

export const postResource = (type: PostType) => POST_RESOURCE[type];
export const termResource = (taxonomy: Taxonomy) => TERM_RESOURCE[taxonomy];

export function postState(p: Pick<PostRecord<object>, 'type' | 'status' | 'author' | 'data'>): ChangeState {
  return {
    status: p.status,
    author: p.author,
    ...(p.type === 'event' && (p.data as Partial<EventData>).hideFromListings ? { hidden: true } : {}),
  };
}

export const TERM_STATE: ChangeState = { status: 'publish', author: '' };

/** Tickets and attendees live in the tickets namespace (docs/tickets.md): their rest_url is there. */
export const TICKET_RESOURCES: readonly ChangeResource[] = ['tickets', 'attendees'];

/** The rest_url of an entry's record, from the events namespace's root (`https://host/cal/events/v1`). */
export const changeRestUrl = (resource: ChangeResource, id: number, eventsRoot: string) =>
  `${TICKET_RESOURCES.includes(resource) ? namespaceRoot(eventsRoot, TICKETS_NAMESPACE) : eventsRoot}/${resource}/${id}`;

/** The same root in another namespace. */
export const namespaceRoot = (eventsRoot: string, namespace: string) =>
  eventsRoot.endsWith(NAMESPACE_PATH)
    ? `${eventsRoot.slice(0, -NAMESPACE_PATH.length)}/${namespace}`
    : `${eventsRoot}/../${namespace}`;

/**
 * A ticket is seen by whoever sees its event: its state is the event's (at the ticket's write). An
 * attendee is seen by those who manage the event's attendees only (docs/tickets.md): `private` of the
 * event's author, which editors and that author see and nobody else; a cancelled one is `trash`, out
 * of every view (`removed`).
 */
export const ticketState = (event: { status: string; author: string }): ChangeState => ({
  status: event.status,
  author: event.author,
});
export const attendeeState = (eventAuthor: string, cancelled = false): ChangeState => ({
  status: cancelled ? 'trash' : 'private',
  author: eventAuthor,
});

/**
 * Whether the record is in the caller's view: what the caller's list route shows by default (all
 * dates): published records for everyone; every status but trash for editors; their own unpublished
 * records too for contributors and authors; events hidden from listings for nobody.
 */
export function inView(s: ChangeState | undefined, user: User | null): boolean {
  if (!s || s.hidden) return false;
  return passesStatus(listStatuses(undefined, user))(s);
}

/**
 * What one entry is to the caller: entering its view `created` (or `restored` out of the trash),
 * leaving it `removed`, staying in it `updated`; outside it before and after, nothing.
 */
export function actionFor(
  e: Pick<ChangeEntry, 'before' | 'after'>,
  user: User | null,
): ChangeAction | undefined {
  const was = inView(e.before, user);
  const is = inView(e.after, user);
  if (was && is) return 'updated';
  if (was) return 'removed';
  if (!is) return undefined;
  return e.before?.status === 'trash' ? 'restored' : 'created';
}

// ---------------------------------------------------------------------------------------------------
// Positions and cursors

const TIME = String.raw`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z`;
/** An entry's position: `<ISO time>#<writer>#<sequence>`; a bare time is a point between entries. */
const POSITION = new RegExp(`^(${TIME})(#[0-9a-f]{8}#\\d{6})?$`);
const CURSOR_PREFIX = '1|';

/** A point in the log: every entry written before `at` sorts before it, every later one after. */
export const positionAt = (at: number) => new Date(at).toISOString();

export const timeOfPosition = (position: string) => Date.parse(position.slice(0, 24));

export const encodeCursor = (position: string) =>
  Buffer.from(`${CURSOR_PREFIX}${position}`).toString('base64url');

const START_OVER = 'Start over without since (from the beginning of the retained history).';

const badCursor = (why: string) => invalidParam('since', `${why} ${START_OVER}`, 'rest_invalid_cursor');

/**
 * The position a cursor points at; a 400 naming `since` when it is not one of ours, or older than the
 * retained history (entries after it may be gone), or from the future.
 */
export function decodeCursor(cursor: string, now: number): string {
  const text = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const position = text.startsWith(CURSOR_PREFIX) ? text.slice(CURSOR_PREFIX.length) : '';
  const at = POSITION.test(position) ? timeOfPosition(position) : Number.NaN;
  if (!Number.isFinite(at) || at > now + 60_000)
    throw badCursor('since is not a cursor of this change feed (use next_cursor as it was given).');
  if (at < now - CHANGE_RETENTION_DAYS * DAY_MS)
    throw badCursor(
      `since has expired: changes are kept ${CHANGE_RETENTION_DAYS} days, and this cursor points further back.`,
    );
  return position;
}

/** The beginning of the retained history. */
export const oldestPosition = (now: number) => positionAt(now - CHANGE_RETENTION_DAYS * DAY_MS);

/** When an entry written at `at` expires (epoch seconds, the table's TTL attribute). */
export const expirationOf = (at: number) => Math.ceil((at + CHANGE_RETENTION_DAYS * DAY_MS) / 1000);
