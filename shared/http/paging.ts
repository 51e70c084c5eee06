import { config } from '../config';
import { archivePageNotFound, type ResourceType } from './errors';
import type { Reply } from './respond';
import type { ApiUrls } from './urls';

export interface PageRequest {
  page: number;
  perPage: number;
}

/** `page` / `per_page` as applied: per_page is capped silently at the deployment maximum. */
export function pageOf(query: { page?: number; per_page?: number }): PageRequest {
  return { page: query.page ?? 1, perPage: Math.min(query.per_page ?? 10, config.maxPerPage) };
}

export const sliceOf = <T>(items: T[], { page, perPage }: PageRequest): T[] =>
  items.slice((page - 1) * perPage, page * perPage);

interface ListOptions {
  /** Body key of the items: `categories`, `events`, ... */
  key: string;
  items: unknown[];
  total: number;
  paging: PageRequest;
  urls: ApiUrls;
  /** Post lists answer 404 past the last page; term lists answer 200 with an empty list. */
  pastEnd: ResourceType | 'empty';
  /** Term lists put the totals first, post lists last (reference key order). */
  itemsFirst: boolean;
}

/**
 * The list envelope of every collection: body, X-Cal-Total / X-Cal-TotalPages and an RFC 8288 Link
 * header. Next / previous URLs keep every query parameter of the request except `page`.
 */
export function listReply(o: ListOptions): Reply {
  const totalPages = Math.ceil(o.total / o.paging.perPage);
  const { page } = o.paging;
  if (page > 1 && page > totalPages && o.pastEnd !== 'empty') throw archivePageNotFound(o.pastEnd);
  // Without a trailing slash: the slashed form is only a 308 to this one.
  const base = `${o.urls.root}${o.urls.path}`;
  const at = (n: number | null) => {
    const q = new URLSearchParams(o.urls.rawQuery);
    q.delete('page');
    if (n !== null && n > 1) q.append('page', String(n));
    const qs = q.toString();
    return qs ? `${base}?${qs}` : base;
  };
  const restUrl = o.urls.rawQuery ? `${base}?${o.urls.rawQuery}` : base;
  const next = page < totalPages ? at(page + 1) : undefined;
  const previous = page > 1 && page - 1 <= totalPages ? at(page - 1) : undefined;
  const links = [next && `<${next}>; rel="next"`, previous && `<${previous}>; rel="prev"`].filter(Boolean);
  const totals = { total: o.total, total_pages: totalPages };
  const body = o.itemsFirst
    ? { [o.key]: o.items, rest_url: restUrl, next_rest_url: next, previous_rest_url: previous, ...totals }
    : { rest_url: restUrl, ...totals, [o.key]: o.items, next_rest_url: next, previous_rest_url: previous };
  return {
    body,
    headers: {
      'X-Cal-Total': String(o.total),
      'X-Cal-TotalPages': String(totalPages),
      ...(links.length > 0 ? { Link: links.join(', ') } : {}),
    },
  };
}
