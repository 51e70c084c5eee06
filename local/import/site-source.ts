import { guardedFetch, OutboundFailed, OutboundRefused } from '../../shared/outbound/guarded-fetch';

/**
 * The source of `npm run import -- site`: a site's events REST API, read page by page through the
 * guarded fetch (no redirects followed, a deadline and a byte limit per page). Two dialects speak it:
 * the reference plugin (`tribe/events/v1`, below `/wp-json/`) and this service (`cal/events/v1`).
 */

/** A one-line error for the person at the keyboard: what went wrong and what to do. */
export class ImportError extends Error {}

export interface SourceAuth {
  /** A WordPress user and one of its application passwords (HTTP Basic). */
  user?: string;
  appPassword?: string;
  /** A bearer token (this service as the source). */
  token?: string;
}

export type Collection = 'categories' | 'tags' | 'venues' | 'organizers' | 'events';

export interface SiteSource {
  /** The REST root, without a trailing slash. */
  root: string;
  namespace: 'tribe/events/v1' | 'cal/events/v1';
  /** `host[:port]` of the site: the source part of each record's origin. */
  site: string;
  authenticated: boolean;
  /** Every record of a collection, page after page, with the total the first page announced. */
  pages(collection: Collection): AsyncGenerator<{ records: SourceRecord[]; total: number }>;
}

export type SourceRecord = Record<string, unknown> & { id: number };

const PAGE_LIMITS = { timeoutMs: 30_000, maxBytes: 10 * 1024 * 1024 };
const NAMESPACES = ['tribe/events/v1', 'cal/events/v1'] as const;
/** Every status an editor may list on this service (the reference's default for them is "any"). */
const ALL_STATUSES = 'publish,future,draft,pending,private';

/** The REST roots to try for what the user typed: the root itself, or a site URL's two candidates. */
export function candidateRoots(given: string): string[] {
  let url: URL;
  try {
    url = new URL(/^https?:\/\//i.test(given) ? given : `https://${given}`);
  } catch {
    throw new ImportError(`"${given}" is not a URL: give the site's address, e.g. https://example.org`);
  }
  const trimmed = url.href.replace(/[?#].*$/, '').replace(/\/+$/, '');
  if (NAMESPACES.some((ns) => trimmed.endsWith(`/${ns}`))) return [trimmed];
  if (trimmed.endsWith('/wp-json')) return [`${trimmed}/tribe/events/v1`];
  return [`${trimmed}/wp-json/tribe/events/v1`, `${trimmed}/cal/events/v1`];
}

function authHeaders(auth: SourceAuth): Record<string, string> {
  if (auth.token) return { authorization: `Bearer ${auth.token}` };
  if (auth.user !== undefined && auth.appPassword !== undefined) {
    // WordPress shows application passwords in groups of four with spaces; both forms are accepted.
    const basic = Buffer.from(`${auth.user}:${auth.appPassword}`).toString('base64');
    return { authorization: `Basic ${basic}` };
  }
  return {};
}

interface Page {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: unknown;
}

async function getJson(url: string, headers: Record<string, string>, local: boolean): Promise<Page> {
  let res;
  try {
    res = await guardedFetch(url, {
      headers: { accept: 'application/json', ...headers },
      ...PAGE_LIMITS,
      policy: { local },
    });
  } catch (e) {
    if (e instanceof OutboundRefused)
      throw new ImportError(`Refused to fetch ${url}: ${e.message}. Give a public https address.`);
    if (e instanceof OutboundFailed)
      throw new ImportError(
        `Cannot reach ${new URL(url).origin} (${e.message}): check the address and that the site is up.`,
      );
    throw e;
  }
  if (res.truncated)
    throw new ImportError(`${url} answered more than ${PAGE_LIMITS.maxBytes} bytes: not an events API page.`);
  let json: unknown;
  try {
    json = JSON.parse(res.body.toString('utf8'));
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json };
}

const errorCode = (json: unknown) =>
  typeof json === 'object' && json !== null && typeof (json as { code?: unknown }).code === 'string'
    ? (json as { code: string }).code
    : undefined;

function credentialsRefused(page: Page, auth: SourceAuth): ImportError | undefined {
  if (page.status !== 401 && page.status !== 403) return undefined;
  const code = errorCode(page.json) ?? `HTTP ${page.status}`;
  const what = auth.token ? '--source-token' : '--user and --app-password';
  return new ImportError(
    `The site refused the credentials (${page.status} ${code}): check ${what} (an application password of an administrator or editor).`,
  );
}

/**
 * Finds the events API behind what the user typed, checks the credentials on it, and reads it.
 * `local` lets loopback and plain http through (the local stack, tests); private addresses never are.
 */
export async function openSite(given: string, auth: SourceAuth, local: boolean): Promise<SiteSource> {
  const headers = authHeaders(auth);
  let found: { root: string; namespace: SiteSource['namespace'] } | undefined;
  let lastError: ImportError | undefined;
  for (const root of candidateRoots(given)) {
    let page: Page;
    try {
      page = await getJson(`${root}/`, {}, local);
    } catch (e) {
      lastError = e as ImportError;
      continue;
    }
    const ns = (page.json as { namespace?: unknown } | undefined)?.namespace;
    if (page.status === 200 && NAMESPACES.includes(ns as SiteSource['namespace'])) {
      found = { root, namespace: ns as SiteSource['namespace'] };
      break;
    }
  }
  if (!found) {
    if (lastError && candidateRoots(given).length === 1) throw lastError;
    if (lastError?.message.startsWith('Cannot reach') || lastError?.message.startsWith('Refused'))
      throw lastError;
    throw new ImportError(
      `No events API at ${given}: the site does not answer /wp-json/tribe/events/v1 (is The Events Calendar active and its REST API enabled?). Or give the REST root itself.`,
    );
  }
  const { root, namespace } = found;
  const authenticated = Object.keys(headers).length > 0;
  if (authenticated) {
    // A list the credentials must pass: a wrong password is a 401 there (a public read would not tell).
    const probe = await getJson(`${root}/events?per_page=1`, headers, local);
    const refused = credentialsRefused(probe, auth);
    if (refused) throw refused;
  }
  const site = new URL(root).host;

  function firstUrl(collection: Collection): string {
    const q = new URLSearchParams({ per_page: '50' });
    if (collection === 'categories' || collection === 'tags') q.set('hide_empty', 'false');
    if (collection === 'events') {
      // Every date: lists default to a window around today.
      q.set('start_date', '1970-01-01');
      q.set('end_date', '2199-12-31');
    }
    // The reference lists every status to an administrator by default; this service needs them named.
    if (
      authenticated &&
      namespace === 'cal/events/v1' &&
      collection !== 'categories' &&
      collection !== 'tags'
    )
      q.set('status', ALL_STATUSES);
    return `${root}/${collection}?${q}`;
  }

  async function* pages(collection: Collection) {
    let url: string | undefined = firstUrl(collection);
    let total = 0;
    for (let n = 1; url; n++) {
      const page = await getJson(url, headers, local);
      const refused = credentialsRefused(page, auth);
      if (refused) throw refused;
      // A page past the end (the list shrank while it was read): nothing more.
      if (page.status === 404 && n > 1) return;
      const body = page.json as Record<string, unknown> | undefined;
      const records = body?.[collection];
      if (page.status !== 200 || !Array.isArray(records))
        throw new ImportError(
          `${url} answered ${page.status} ${errorCode(page.json) ?? ''}`.trim() +
            ': not a page of the events API. Is the address the REST root?',
        );
      if (n === 1) total = Number(body!.total ?? records.length) || records.length;
      yield { records: records as SourceRecord[], total };
      const next = body!.next_rest_url;
      url = typeof next === 'string' && records.length > 0 ? sameOrigin(next, root) : undefined;
    }
  }

  return { root, namespace, site, authenticated, pages };
}

/** A next-page link, fetched from the root's origin (a site behind a proxy may name its inner host). */
function sameOrigin(link: string, root: string): string {
  const url = new URL(link, root);
  const base = new URL(root);
  url.protocol = base.protocol;
  url.host = base.host;
  return url.href;
}
