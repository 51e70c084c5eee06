import { archivePageNotFound, type ResourceType } from '../domain/errors';
import type { Page } from '../domain/paging';
import type { User } from '../domain/roles';
import { entityTag } from './etag';
import type { Reply } from './respond';
import type { ApiUrls } from './urls';

/** The list envelope of every collection (its items under the collection's key). */
export type ListEnvelope = { rest_url: string; total: number; total_pages: number } & Record<string, unknown>;

/** How a collection is shown: its body key, what a page past the end is, and the key order. */
export interface ListShape {
  /** Body key of the items: `categories`, `events`, ... */
  key: string;
  /** Post lists answer 404 past the last page; term lists answer 200 with an empty list. */
  pastEnd: ResourceType | 'empty';
  /** Term lists put the totals first, post lists last (reference key order). */
  itemsFirst: boolean;
}

export const LISTS = {
  events: { key: 'events', pastEnd: 'event', itemsFirst: true },
  venues: { key: 'venues', pastEnd: 'venue', itemsFirst: true },
  organizers: { key: 'organizers', pastEnd: 'organizer', itemsFirst: true },
  categories: { key: 'categories', pastEnd: 'empty', itemsFirst: false },
  tags: { key: 'tags', pastEnd: 'empty', itemsFirst: false },
} as const satisfies Record<string, ListShape>;

/**
 * The list envelope of every collection: body, X-Cal-Total / X-Cal-TotalPages and an RFC 8288 Link
 * header. Next / previous URLs keep every query parameter of the request except `page`.
 */
export function listReply<T>(list: Page<T>, shape: ListShape, urls: ApiUrls): Reply<ListEnvelope> {
  const totalPages = Math.ceil(list.total / list.paging.perPage);
  const { page } = list.paging;
  if (page > 1 && page > totalPages && shape.pastEnd !== 'empty') throw archivePageNotFound(shape.pastEnd);
  const base = `${urls.root}${urls.path}`;
  const at = (n: number | null) => {
    const q = new URLSearchParams(urls.rawQuery);
    q.delete('page');
    if (n !== null && n > 1) q.append('page', String(n));
    const qs = q.toString();
    return qs ? `${base}?${qs}` : base;
  };
  const restUrl = urls.rawQuery ? `${base}?${urls.rawQuery}` : base;
  const next = page < totalPages ? at(page + 1) : undefined;
  const previous = page > 1 && page - 1 <= totalPages ? at(page - 1) : undefined;
  const links = [next && `<${next}>; rel="next"`, previous && `<${previous}>; rel="prev"`].filter(Boolean);
  const totals = { total: list.total, total_pages: totalPages };
  const body = shape.itemsFirst
    ? {
        [shape.key]: list.items,
        rest_url: restUrl,
        next_rest_url: next,
        previous_rest_url: previous,
        ...totals,
      }
    : {
        rest_url: restUrl,
        ...totals,
        [shape.key]: list.items,
        next_rest_url: next,
        previous_rest_url: previous,
      };
  return {
    body,
    headers: {
      'X-Cal-Total': String(list.total),
      'X-Cal-TotalPages': String(totalPages),
      ...(links.length > 0 ? { Link: links.join(', ') } : {}),
    },
  };
}

/**
 * A list exported as CSV (text/csv, a download named `filename`) instead of its JSON page: the whole
 * list in one file, so its totals say one page. Typed `never` so that an operation whose 200 documents
 * text/csv beside its JSON (`alternatives` in the contract) returns it as its reply; personal data
 * (attendees), so no shared cache keeps it.
 */
export function csvReply(text: string, filename: string, rows: number): Reply<never> {
  return {
    body: text as never,
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${filename}"`,
      'Cache-Control': 'private, no-store',
      Vary: 'Accept, Authorization',
      ETag: entityTag(text, text),
      'X-Cal-Total': String(rows),
      'X-Cal-TotalPages': '1',
    },
  };
}

/** 201 with the new record and its `Location`. */
export const created = <B>(body: B, location: string): Reply<B> => ({
  status: 201,
  body,
  headers: { Location: location },
});

/** 202: the work goes on after the answer; the body and Location say where to follow it. */
export const accepted = <B extends { rest_url: string }>(body: B): Reply<B> => ({
  status: 202,
  body,
  headers: { Location: body.rest_url },
});

/**
 * 202 of a series write that answers before all its occurrences are written (issue 38,
 * docs/recurrence.md): the occurrence written, its `Location`, and how many of the series' occurrences
 * are written and still pending (the finisher writes them within seconds).
 */
export const seriesAccepted = <B>(
  body: B,
  location: string,
  progress: { written: number; pending: number },
): Reply<B> => ({
  status: 202,
  body,
  headers: {
    Location: location,
    'X-Cal-Series-Written': String(progress.written),
    'X-Cal-Series-Pending': String(progress.pending),
  },
});

/**
 * The answer of an event write: `done`'s, unless it was a series write whose occurrences are not all
 * written yet (the write reports its progress then), which is the 202 above.
 */
export async function seriesWriteReply<B extends { rest_url: unknown }>(
  write: (onProgress: (p: { written: number; pending: number }) => void) => Promise<B>,
  done: (body: B) => Reply<B>,
): Promise<Reply<B>> {
  let progress: { written: number; pending: number } | undefined;
  const body = await write((p) => (progress = p));
  return progress ? seriesAccepted(body, String(body.rest_url), progress) : done(body);
}

/** 200 with the body. */
export const ok = <B>(body: B): Reply<B> => ({ body });

/**
 * 200 with an iCalendar body (sent as it is, see jsonResponse) and its caching headers. Anonymous
 * answers may be kept by shared caches for five minutes; a token's are revalidated every time.
 */
export function calendarReply(
  doc: { body: string; etag: string; lastModified?: string },
  user: User | null,
): Reply<string> {
  return {
    body: doc.body,
    headers: {
      'Content-Type': 'text/calendar; charset=utf-8',
      ETag: doc.etag,
      ...(doc.lastModified ? { 'Last-Modified': doc.lastModified } : {}),
      'Cache-Control': user ? 'private, no-cache' : 'public, max-age=300',
      Vary: 'Authorization',
    },
  };
}
