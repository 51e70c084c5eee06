/**
 * The page's only way to its data: the public API on the same origin, as any client would call it.
 * Links the API returns (`next_rest_url`, `rest_url`) are followed by their path and query on this
 * origin, so the page keeps working when the API builds them from another host name (an origin behind
 * a CDN).
 */
export const API_ROOT = '/cal/events/v1';

/** The error envelope of every 4xx / 5xx: `{code, message, data: {status, params?, details?}}`. */
export interface ApiErrorBody {
  code: string;
  message: string;
  data?: {
    status?: number;
    params?: string[] | Record<string, string>;
    details?: Record<string, { code: string; message: string }>;
  };
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    super(body.message || `HTTP ${status}`);
  }

  /** The message for each parameter the API names: `{field: reason}` (missing ones say so). */
  fieldMessages(): Record<string, string> {
    const params = this.body.data?.params;
    if (Array.isArray(params)) return Object.fromEntries(params.map((p) => [p, `${p} is required.`]));
    const out: Record<string, string> = { ...(params ?? {}) };
    for (const [name, d] of Object.entries(this.body.data?.details ?? {})) out[name] ??= d.message;
    return out;
  }
}

const TOKEN_KEY = 'cal-token';

export const token = {
  get: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  set: (t: string) => sessionStorage.setItem(TOKEN_KEY, t),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

/** A path and query on this origin for an API URL (absolute or relative). */
export function sameOrigin(url: string): string {
  const u = new URL(url, location.origin);
  return `${u.pathname}${u.search}`;
}

export async function api<T = unknown>(
  method: string,
  path: string,
  body?: unknown,
  signal?: AbortSignal,
  extra: Record<string, string> = {},
): Promise<T> {
  return (await apiReply<T>(method, path, body, signal, extra)).body;
}

/** The body and the ETag of an answer. */
export async function apiReply<T = unknown>(
  method: string,
  path: string,
  body?: unknown,
  signal?: AbortSignal,
  extra: Record<string, string> = {},
): Promise<{ body: T; etag: string | null }> {
  const headers: Record<string, string> = { accept: 'application/json', ...extra };
  const t = token.get();
  if (t) headers.authorization = `Bearer ${t}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const url = path.startsWith(API_ROOT) ? path : `${API_ROOT}${path}`;
  const res = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = { code: 'not_json', message: `HTTP ${res.status}: the answer is not JSON.` };
  }
  if (!res.ok) throw new ApiError(res.status, parsed as ApiErrorBody);
  return { body: parsed as T, etag: res.headers.get('etag') };
}

/** `If-Match` for a write of the version read, when its ETag is known (412 if it changed since). */
export const ifMatch = (etag: string | null | undefined): Record<string, string> =>
  etag ? { 'if-match': etag } : {};

/** Every page of a list, following `next_rest_url` until there is none. */
export async function listAll<T>(
  firstPath: string,
  key: string,
  signal?: AbortSignal,
  maxPages = 40,
): Promise<T[]> {
  const out: T[] = [];
  let next: string | undefined = firstPath;
  for (let page = 0; next && page < maxPages; page++) {
    let body: Record<string, unknown>;
    try {
      body = await api<Record<string, unknown>>('GET', next, undefined, signal);
    } catch (e) {
      // An empty archive past its first page is a 404 for posts; nothing more to read.
      if (e instanceof ApiError && e.status === 404 && page > 0) break;
      throw e;
    }
    out.push(...((body[key] as T[] | undefined) ?? []));
    next = typeof body.next_rest_url === 'string' ? sameOrigin(body.next_rest_url) : undefined;
  }
  return out;
}

// ---- Shapes the page reads (the API returns more) ----------------------------------------------

export interface Term {
  id: number;
  name: string;
  slug: string;
  parent: number;
}

export interface Venue {
  id: number;
  venue: string;
  status?: string;
  address?: string;
  city?: string;
  stateprovince?: string;
  province?: string;
  state?: string;
  zip?: string;
  country?: string;
  phone?: string;
  website?: string;
}

export interface Organizer {
  id: number;
  organizer: string;
  status?: string;
  phone?: string;
  website?: string;
  email?: string;
}

export interface CalEvent {
  id: number;
  status: string;
  author: string;
  title: string;
  description: string;
  excerpt: string;
  url: string;
  rest_url: string;
  slug: string;
  all_day: boolean;
  start_date: string;
  end_date: string;
  utc_start_date: string;
  utc_end_date: string;
  timezone: string;
  timezone_abbr: string;
  cost: string;
  website: string | null;
  featured: boolean;
  image: false | { url: string };
  categories: Term[];
  tags: Term[];
  venue: Venue | Venue[];
  organizer: Organizer[];
}

export const venuesOf = (e: CalEvent): Venue[] => (Array.isArray(e.venue) ? e.venue : [e.venue]);
