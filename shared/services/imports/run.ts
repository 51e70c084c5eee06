import { createHash } from 'node:crypto';
import { config } from '../../config';
import { DomainError, invalidParam } from '../../domain/errors';
import { type FeedEventBody, type FeedItem, readFeed } from '../../domain/ics-feed';
import { fetchTimeoutMs } from '../../domain/import-budget';
import { guardedFetch, OutboundFailed, OutboundRefused } from '../../outbound/guarded-fetch';
import {
  deleteImported,
  type ImportedEvent,
  importedOf,
  type ImportProgress,
  type ImportRecord,
  type ImportReport,
  putImported,
} from '../../repositories/imports';
import { getSeries } from '../../repositories/series';
import type { Writer } from '../common';
import { removeEvent } from '../events/delete';
import { checkAsPostEvents, emptyReport, reasonOf } from './report';
import { createEvent, type EventBody, updateEvent } from '../events/write';

/** One run of an import: fetch, read, upsert by UID, trash what the feed no longer has (docs/import-export.md). */

/** The most a feed may be, and the longest its fetch may take when the run's time allows it. */
export const FEED_LIMITS = { maxBytes: 10 * 1024 * 1024, timeoutMs: 30_000 };

/** The run's time ran out before the feed came: the run is not over, the rest is left to the job. */
export class OutOfTime extends Error {
  constructor() {
    super('The feed did not come before the run’s time was up.');
  }
}

/**
 * The feed at `url`, through the guarded fetch; every way it cannot be had is a 400 naming `url`. With
 * a `deadline` (the run's, from its function's remaining time) the fetch stops there: OutOfTime, not a
 * 400, when that cut it shorter than the feed's own limit.
 */
export async function fetchFeed(url: string, deadline?: number): Promise<string> {
  const refused = (why: string) =>
    invalidParam('url', `The feed could not be fetched: ${why}.`, 'rest_import_fetch_failed');
  const timeoutMs = fetchTimeoutMs(FEED_LIMITS.timeoutMs, deadline);
  let res;
  try {
    res = await guardedFetch(url, {
      ...FEED_LIMITS,
      timeoutMs,
      headers: { accept: 'text/calendar, */*;q=0.5', 'user-agent': 'cal-events-import/1' },
      policy: { local: config.outboundLocal },
    });
  } catch (e) {
    if (e instanceof OutboundFailed && e.reason === 'timeout' && timeoutMs < FEED_LIMITS.timeoutMs)
      throw new OutOfTime();
    throw e instanceof OutboundRefused
      ? invalidParam('url', `url is not allowed: ${e.message}.`, 'rest_import_url_refused')
      : refused((e as Error).message);
  }
  if (res.status >= 300 && res.status < 400)
    throw refused(
      `it answered ${res.status}, a redirect to ${res.headers.location ?? 'nowhere'}, which is not followed: import that address`,
    );
  if (res.status !== 200) throw refused(`it answered ${res.status}`);
  if (res.truncated) throw refused(`it is larger than ${FEED_LIMITS.maxBytes / 1024 / 1024} MB`);
  return res.body.toString('utf8');
}

const digestOf = (x: unknown) => createHash('sha256').update(JSON.stringify(x)).digest('base64url');

/** What an event of the feed is sent as: the feed's fields, the import's status and categories. */
function bodyFor(rec: ImportRecord, body: FeedEventBody): EventBody {
  const categories = [...new Set([...body.categories, ...rec.categories])];
  return { ...body, categories, status: rec.status } as EventBody;
}

const sent = (body: object) => new Set(Object.keys(body));
const gone = (e: unknown) => e instanceof DomainError && (e.kind === 'not-found' || e.kind === 'gone');

/** A run's report, and how far it got when it stopped at its deadline (absent: it finished). */
export interface RunResult {
  report: ImportReport;
  progress?: ImportProgress;
}

/**
 * Reads `text` (fetched from the import's URL when not given) and writes its events as the import's
 * owner: an unchanged UID is left alone, a changed one updated (a series with scope=all, then its
 * overrides as exceptions), a new one created; UIDs this import made that the feed no longer has are
 * trashed. A malformed feed is a 400 before anything is written; one bad VEVENT is skipped.
 *
 * Each UID's event is recorded as soon as it is written, so a run cut short (its function's time, a
 * crash) and run again finds what it made instead of making it twice. At `deadline` the run stops
 * between two records and says how far it got; an import with `progress` is continued: the records
 * already done are passed again (unchanged ones cost a read) without being counted twice.
 */
export async function runImport(rec: ImportRecord, text?: string, deadline?: number): Promise<RunResult> {
  const resumed = rec.progress?.done ?? 0;
  // Continued: the report so far, without the note that the last part ran out of time.
  const { error: _timedOut, ...soFar } = rec.last_run;
  const report: ImportReport = rec.progress ? { ...soFar, skipped: [...soFar.skipped] } : emptyReport();
  const feed = readFeed(text ?? (await fetchFeed(rec.url!, deadline)));
  if (!rec.progress) report.skipped.push(...feed.skipped);
  const total = feed.items.length;
  const outOfTime = () => deadline !== undefined && Date.now() >= deadline;
  const ctx: Writer = { user: rec.owner, root: rec.root };
  const known = await importedOf(rec.id);
  const seen = new Set(feed.skipped.map((s) => s.uid).filter(Boolean));
  for (const [i, item] of feed.items.entries()) {
    // Stopped among the records done before: they are still done.
    if (outOfTime()) return { report, progress: { done: Math.max(i, resumed), total } };
    seen.add(item.uid);
    // Done before the run was cut short: counted then, unless it changed since.
    const counted = i < resumed;
    try {
      const outcome = await upsert(rec, item, known.get(item.uid), ctx);
      if (!counted || outcome !== 'unchanged') report[outcome]++;
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      if (!counted)
        report.skipped.push({ line: item.line, uid: item.uid, reason: `line ${item.line}: ${reasonOf(e)}` });
    }
  }
  for (const [uid, was] of known) {
    if (seen.has(uid)) continue;
    if (outOfTime()) return { report, progress: { done: total, total } };
    try {
      await removeEvent({ id: was.event_id }, false, ctx, was.series ? 'all' : undefined);
      report.trashed++;
    } catch (e) {
      if (!gone(e)) throw e;
    }
    await deleteImported(rec.id, uid);
  }
  report.finished_utc = new Date().toISOString();
  return { report };
}

async function upsert(
  rec: ImportRecord,
  item: FeedItem,
  was: ImportedEvent | undefined,
  ctx: Writer,
): Promise<'created' | 'updated' | 'unchanged'> {
  const body = bodyFor(rec, item.body);
  checkAsPostEvents(body);
  for (const o of item.overrides) if (!o.cancelled) checkAsPostEvents(bodyFor(rec, o.body));
  const series = Boolean(item.body.recurrence);
  const digest = digestOf([body, item.overrides]);
  if (was && was.digest === digest) return 'unchanged';
  let eventId: number | undefined;
  if (was && was.series === series) {
    try {
      eventId = (await updateEvent({ id: was.event_id }, body, sent(body), ctx, series ? 'all' : undefined))
        .id as number;
    } catch (e) {
      if (!gone(e)) throw e;
    }
  } else if (was) {
    // A single event that became a series, or the reverse: the old one goes, the new one is made.
    await removeEvent({ id: was.event_id }, false, ctx, was.series ? 'all' : undefined).catch((e) => {
      if (!gone(e)) throw e;
    });
  }
  const created = eventId === undefined;
  eventId ??= (await createEvent(body, sent(body), ctx)).id as number;
  const overrides = series ? await applyOverrides(rec, item, eventId, ctx) : undefined;
  await putImported(rec.id, {
    uid: item.uid,
    event_id: eventId,
    series,
    digest,
    ...(overrides ? { overrides } : {}),
  });
  return created ? 'created' : 'updated';
}

/** A series' RECURRENCE-ID overrides as exceptions (scope=this): changed, or trashed when cancelled. */
async function applyOverrides(rec: ImportRecord, item: FeedItem, seriesId: number, ctx: Writer) {
  const found: Record<string, number> = {};
  if (!item.overrides.length) return found;
  const members = Object.entries((await getSeries(seriesId))?.members ?? {});
  for (const o of item.overrides) {
    const member = members.find(([, start]) => start.startsWith(o.occurrence));
    if (!member)
      throw invalidParam('recurrence', `RECURRENCE-ID ${o.occurrence} is no occurrence of the series.`);
    const id = Number(member[0]);
    found[o.occurrence] = id;
    if (o.cancelled) {
      await removeEvent({ id }, false, ctx, 'this').catch((e) => {
        if (!gone(e)) throw e;
      });
      continue;
    }
    const { recurrence: _r, ...own } = bodyFor(rec, o.body);
    await updateEvent({ id }, own, sent(own), ctx, 'this');
  }
  return found;
}
