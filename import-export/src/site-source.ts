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
  /** What the person at the keyboard should know before trusting the result (one line each). */
  warnings: string[];
  /** Every record of a collection, page after page, with the total the first page announced. */
  pages(collection: Collection): AsyncGenerator<{ records: SourceRecord[]; total: number }>;
}

export type SourceRecord = Record<string, unknown> & { id: number };

const PAGE_LIMITS = { timeoutMs: 30_000, maxBytes: 10 * 1024 * 1024 };
const NAMESPACES = ['tribe/events/v1', 'cal/events/v1'] as const;
/**
 * Every status an editor may list, named: the reference's own `next_rest_url` carries `status=any` for
 * them, which the same endpoint then refuses (400), so pages are asked for by number with this list.
 */
const ALL_STATUSES = 'publish,future,draft,pending,private';
/**
 * The first day asked for: the reference validates dates with PHP's strtotime, which answers 0 for
 * 1970-01-01 00:00 UTC, read there as "not a date" (a 400); 1900-01-01 passes and precedes any event.
 */
const FIRST_DAY = '1900-01-01';
const LAST_DAY = '2199-12-31';
/** A site under load answers 502/503 now and then: each read is tried this many times. */
const TRIES = 3;
const TRANSIENT = new Set([500, 502, 503, 504]);

/** The REST roots to try for what the user typed: the root itself, or a site URL's two candidates. */
export function candidateRoots(given: string): string[] {
  let url: URL;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(given)?.[1]?.toLowerCase();
  if (scheme && scheme !== 'http' && scheme !== 'https' && given.includes('://'))
    throw new ImportError(
      `"${given}" is a ${scheme}: address: give the site's http(s) address, e.g. https://example.org`,
    );
  if (!/^https?:\/\//i.test(given))
    throw new ImportError(
      `"${given}" has no scheme: give the site's full address, e.g. https://${given.replace(/^\/+/, '')}`,
    );
  try {
    url = new URL(given);
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

/** One GET; `passFailures` lets a timeout or a dropped connection through as is (to be retried). */
async function getJson(
  url: string,
  headers: Record<string, string>,
  local: boolean,
  passFailures = false,
): Promise<Page> {
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
    if (e instanceof OutboundFailed && !passFailures)
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

/** How a read of the site is retried: tries and the first pause (doubled each time). */
export interface ReadOptions {
  tries?: number;
  backoffMs?: number;
}

/**
 * A read retried while the site fails in a way that passes (5xx, a timeout, a dropped connection),
 * then a one-line error that says where it stopped and that the same command resumes.
 */
async function readPage(
  url: string,
  headers: Record<string, string>,
  local: boolean,
  where: string,
  o: ReadOptions,
): Promise<Page> {
  const tries = o.tries ?? TRIES;
  for (let n = 1; ; n++) {
    let failure: string;
    try {
      const page = await getJson(url, headers, local, true);
      if (!TRANSIENT.has(page.status)) return page;
      failure = `HTTP ${page.status}`;
    } catch (e) {
      if (!(e instanceof OutboundFailed)) throw e;
      failure = e.reason === 'timeout' ? 'no answer in time' : e.message;
    }
    if (n >= tries)
      throw new ImportError(
        `The site failed to answer (${failure}) at ${where}, ${tries} times: run the same command again to resume.`,
      );
    await new Promise((ok) => setTimeout(ok, (o.backoffMs ?? 1000) * 2 ** (n - 1)));
  }
}

/**
 * Finds the events API behind what the user typed, checks the credentials on it, and reads it.
 * `local` lets loopback and plain http through (the local stack, tests); private addresses never are.
 */
export async function openSite(
  given: string,
  auth: SourceAuth,
  local: boolean,
  read: ReadOptions = {},
): Promise<SiteSource> {
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
  const warnings: string[] = [];
  let statuses = authenticated;
  if (authenticated) {
    // A list the credentials must pass: a wrong password is a 401 there (a public read would not tell).
    const probe = await readPage(
      `${root}/events?${new URLSearchParams({ per_page: '1', status: ALL_STATUSES, start_date: FIRST_DAY })}`,
      headers,
      local,
      'the first page of events',
      read,
    );
    const refused = credentialsRefused(probe, auth);
    if (refused) throw refused;
    if (probe.status === 400) {
      // A user who cannot edit events (a subscriber) may not ask for statuses: published records only.
      statuses = false;
      warnings.push(
        'These credentials cannot list unpublished records (a subscriber?): only published records are read. Use an administrator or editor for every status.',
      );
    }
  }
  const site = new URL(root).host;

  function pageUrl(collection: Collection, n: number): string {
    const q = new URLSearchParams({ per_page: '50', page: String(n) });
    if (collection === 'categories' || collection === 'tags') q.set('hide_empty', 'false');
    if (collection === 'events') {
      // Every date: lists default to a window around today.
      q.set('start_date', FIRST_DAY);
      q.set('end_date', LAST_DAY);
    }
    if (statuses && collection !== 'categories' && collection !== 'tags') q.set('status', ALL_STATUSES);
    return `${root}/${collection}?${q}`;
  }

  // Pages are asked for by number, not by following `next_rest_url` (see ALL_STATUSES).
  async function* pages(collection: Collection) {
    let total = 0;
    let last = 1;
    for (let n = 1; n <= last; n++) {
      const url = pageUrl(collection, n);
      const page = await readPage(url, headers, local, `page ${n} of ${collection}`, read);
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
      if (n === 1) {
        total = Number(body!.total ?? records.length) || records.length;
        last = Number(body!.total_pages ?? page.headers['x-tec-totalpages'] ?? 1) || 1;
      }
      if (records.length === 0) return;
      yield { records: records as SourceRecord[], total };
    }
  }

  return { root, namespace, site, authenticated, warnings, pages };
}
