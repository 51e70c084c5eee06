import { config } from '../config';

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

/** One page of a list and how many records the whole list holds. */
export interface Page<T> {
  items: T[];
  total: number;
  paging: PageRequest;
}
