import { randomUUID } from 'node:crypto';
import { nowStamps } from '../../domain/clock';
import { type EventRecord, termsRecounted } from '../../domain/event-record';
import { resolveEventTimes } from '../../domain/event-times';
import { TIME_FIELDS, withShared } from '../../domain/series-fields';
import { wallDiff, wallPlus } from '../../domain/wall-time';
import { goneLinkTargets } from '../../repositories/events';
import { commitSteps, Moved, readOccurrences, type Step } from '../../repositories/series-journal';
import {
  clearJournal,
  getSeries,
  type JournalEntry,
  noteJournalLeft,
  type SeriesItem,
} from '../../repositories/series';
import { syncTermsInUse } from '../../repositories/term-use';
import { linkedGone, parentsFor } from '../events';

/**
 * Finishing a series' journal (docs/recurrence.md, "A write of many transactions"): every occurrence it
 * names is brought in line with the series (created, updated or removed), in transactions of up to 100
 * items, each occurrence whole in one of them. It reads the occurrences first, so a repeat writes only
 * what is still to do: a journal can be finished by the request that wrote it, by its repeat, or by
 * the extend job.
 */

export const newToken = () => randomUUID();

/** Stable text of what an occurrence shows, to tell whether it needs a write. */
function shape(e: EventRecord): string {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .filter(([, x]) => x !== undefined)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([k, x]) => [k, sorted(x)]),
          )
        : v;
  const { title, description, excerpt, status, author, date, date_utc, data } = e;
  return JSON.stringify(sorted({ title, description, excerpt, status, author, date, date_utc, data }));
}

/** The occurrence of `s` the rule places at `start`, as it should be (keeping its own edits). */
export async function occurrenceState(
  s: SeriesItem,
  start: string,
  current: EventRecord | undefined,
  override: readonly string[] = [],
): Promise<EventRecord> {
  const edited = (current?.data.series?.edited ?? []).filter((f) => !override.includes(f));
  const base: EventRecord =
    current ??
    ({
      id: 0,
      type: 'event',
      slug: '',
      version: 0,
      countPublic: 0,
      countAll: 0,
      data: {},
    } as unknown as EventRecord);
  const next = withShared(s.template, base, edited);
  const ownTimes = current && TIME_FIELDS.some((f) => edited.includes(f));
  const times = ownTimes
    ? undefined
    : await resolveEventTimes({
        start_date: start,
        end_date: wallPlus(start, wallDiff(s.end, s.start)),
        timezone: s.timezone,
        all_day: s.allDay,
      });
  next.data = {
    ...next.data,
    ...(times ?? {}),
    series: {
      id: s.id,
      lines: s.lines,
      text: s.text,
      start,
      exception: current?.data.series?.exception ?? false,
      edited,
    },
  };
  next.sortDate = next.data.start;
  next.sortEnd = next.data.end;
  if (!current) Object.assign(next, nowStamps());
  return next;
}

const MAX_PASSES = 5;

/**
 * Brings the journal's occurrences in line and removes the journal. Occurrences someone changed
 * meanwhile are read again (a few passes); what still differs after that is left in the journal for
 * the next repeat or extend run.
 */
export async function finishJournal(
  seriesId: number,
  budgetMs = REQUEST_BUDGET_MS,
  /** Filled with how many of the journal's occurrences are still to write when it returns false. */
  progress?: { pending: number },
): Promise<boolean> {
  const deadline = Date.now() + budgetMs;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const s = await getSeries(seriesId);
    if (!s?.journal) return true;
    try {
      const left = await applyJournal(s, deadline);
      if (progress) progress.pending = left;
      if (left > 0) {
        await noteJournalLeft(s.id, s.journal.token, left);
        return false;
      }
      await clearJournal(s.id, s.journal.token);
      return true;
    } catch (e) {
      if (!(e instanceof Moved)) throw e;
    }
  }
  return false;
}

/**
 * How long a request goes on writing a journal: well inside a function's 10 s, so that it answers;
 * what is left is finished by a repeat of the request or by the extend job.
 */
const REQUEST_BUDGET_MS = 3000;

/** Writes what the journal still needs until the deadline; answers how many occurrences are left. */
async function applyJournal(s: SeriesItem, deadline: number): Promise<number> {
  const { entries, override } = s.journal!;
  const ids = [...new Set(entries.map((e) => e.id))];
  const current = await readOccurrences(ids);
  const steps: Step[] = [];
  for (const entry of entries as JournalEntry[]) {
    const before = current.get(entry.id);
    if ('remove' in entry) {
      if (before) steps.push({ before });
      continue;
    }
    const after = await occurrenceState(s, entry.start, before, override);
    if (before && shape(before) === shape(after)) continue;
    steps.push({
      before,
      after: before ? after : { ...after, id: entry.id },
      ...(before ? {} : { slugBase: `${s.slug}-${entry.start.slice(0, 10)}` }),
    });
  }
  if (!steps.length) return 0;
  const records = steps.flatMap((st) => [st.before, st.after]).filter((r): r is EventRecord => !!r);
  const withCategories = records.some((r) => r.data.categories.length > 0);
  const [gone, parentOf] = await Promise.all([goneOf(records), parentsFor(withCategories)]);
  const done = await commitSteps(steps, { gone, linkedGone, parentOf }, deadline);
  const terms = new Set(steps.flatMap((st) => termsRecounted(st.before, st.after)));
  await syncTermsInUse(terms);
  return done;
}

/** Link targets gone or being deleted, over the links of every record written (one batched read). */
function goneOf(records: EventRecord[]): Promise<Set<string>> {
  // goneLinkTargets reads one record's links: a stand-in that holds every link once.
  const union = (pick: (r: EventRecord) => number[]) => [...new Set(records.flatMap(pick))];
  const first = records[0]!;
  return goneLinkTargets({
    ...first,
    data: {
      ...first.data,
      categories: union((r) => r.data.categories),
      tags: union((r) => r.data.tags),
      venues: union((r) => r.data.venues),
      organizers: union((r) => r.data.organizers),
    },
  });
}
