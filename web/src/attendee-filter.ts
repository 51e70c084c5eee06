import { type Attendee, TICKETS_ROOT } from './api-types';

/**
 * The attendee list's rules (attendee-list.ts draws it), with no DOM: the search box's match (name or
 * e-mail, every word, case and accents ignored: filtered in the page, the event's list being read
 * whole), the words of each row and of the count, and the CSV export's address.
 */

/** Lower case, accents off: "Zoë" matches "zoe". */
const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** The search's words (folded); none matches everyone. */
export const searchWords = (search: string): string[] => fold(search).split(/\s+/).filter(Boolean);

/** Whether every word is in the attendee's name or e-mail address. */
export function matchesSearch(a: Attendee, words: string[]): boolean {
  const text = fold(`${a.title} ${a.email ?? ''}`);
  return words.every((w) => text.includes(w));
}

export const filterAttendees = (list: Attendee[], search: string): Attendee[] => {
  const words = searchWords(search);
  return words.length ? list.filter((a) => matchesSearch(a, words)) : list;
};

const STATUS: Record<string, string> = {
  going: 'Going',
  'not going': 'Not going',
  waitlist: 'Waitlist',
  cancelled: 'Cancelled',
};

/** An attendee's registration in words. */
export const attendeeStatus = (a: Attendee): string => STATUS[a.status ?? ''] ?? a.status ?? '';

/** The count line under the search box, as the list stands. */
export function shownText(shown: number, total: number, search: string): string {
  if (total === 0) return 'Nobody has registered yet.';
  const all = `${total} ${total === 1 ? 'attendee' : 'attendees'}`;
  if (!searchWords(search).length) return `${all}.`;
  if (shown === 0) return `No attendee matches “${search.trim()}” (of ${all}).`;
  return `${shown} of ${all} shown.`;
}

/**
 * GET /attendees as CSV for one event (docs/tickets.md): the same access as the JSON list, so it is
 * fetched with the bearer token and saved from the page, never a bare link (a link sends no token).
 */
export const attendeesCsvPath = (postId: number): string =>
  `${TICKETS_ROOT}/attendees?${new URLSearchParams({ post_id: String(postId), format: 'csv' })}`;

/** The file name of an event's export: `attendees-<slug>.csv` (the slug's unsafe characters dropped). */
export const csvFileName = (slug: string): string =>
  `attendees-${
    decodeSafe(slug)
      .replace(/[^\p{L}\p{N}_-]+/gu, '-')
      .replace(/^-+|-+$/g, '') || 'event'
  }.csv`;

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
