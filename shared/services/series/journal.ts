import { randomUUID } from 'node:crypto';
import { nowStamps } from '../../domain/clock';
import { type EventRecord, termsRecounted } from '../../domain/event-record';
import { resolveEventTimes } from '../../domain/event-times';
import { TIME_FIELDS, withShared } from '../../domain/series-fields';
import { wallDiff, wallPlus } from '../../domain/wall-time';
import { keys } from '../../db/keys';
import { mergeAdds } from '../../db/merge-adds';
import { batchGet } from '../../db/query';
import { commit, MAX_TRANSACTION_ITEMS, type PlannedWrite } from '../../db/transact';
import { type Deltas, deltaWrites, eventWrites } from '../../repositories/event-writes';
import { goneLinkTargets } from '../../repositories/events';
import {
  deletePostWrites,
  fromPostItem,
  newPostWrites,
  scheduleWrites,
  postUpdate,
  statusCount,
  statusTotals,
} from '../../repositories/posts';
import {
  clearJournal,
  getSeries,
  type JournalEntry,
  noteJournalLeft,
  type SeriesItem,
} from '../../repositories/series';
import { commitWithSlugs, slugStates } from '../../repositories/slug-claims';
import { syncTermsInUse } from '../../repositories/term-use';
import { linkedGone, parentsFor } from '../events';

/**
 * Finishing a series' journal (docs/recurrence.md, "A write of many transactions"): every occurrence it
 * names is brought in line with the series (created, updated or removed), in transactions of up to 100
 * items, each occurrence whole in one of them. It reads the occurrences first, so a repeat writes only
 * what is still to do: a journal can be finished by the request that wrote it, by its repeat, or by
 * the extend job.
 */

/** An occurrence changed between its read and its write: read again and go on. */
class Moved extends Error {}

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

interface Step {
  before?: EventRecord;
  after?: EventRecord;
  /** New occurrences: the slug base they claim. */
  slugBase?: string;
}

/** The items of one occurrence's write (its status total apart: one per transaction, summed). */
function stepWrites(step: Step, claim: number, slug: string, shared: Shared): PlannedWrite[] {
  const stale = () => new Moved();
  const o = { gone: shared.gone, linkedGone, parentOf: shared.parentOf, deltas: shared.deltas };
  const { before, after } = step;
  if (!after) return [...deletePostWrites(before!, stale), ...eventWrites(before, undefined, o)];
  if (!before) {
    const record = { ...after, slug, version: 1 };
    return [...newPostWrites(record, claim), ...eventWrites(undefined, record, o)];
  }
  const next = { ...after, version: before.version + 1, ...nowStamps() };
  return [
    postUpdate(before, next, stale),
    ...scheduleWrites(before, next),
    ...statusCount('event', before.status, next.status),
    ...eventWrites(before, next, o),
  ];
}

interface Shared {
  gone: Set<string>;
  parentOf?: ReadonlyMap<number, number>;
  deltas?: Deltas;
}

/** The item a write names (table and key): a transaction may name each item once. */
function itemOf(w: PlannedWrite): string {
  const { Put, Update, Delete, ConditionCheck } = w.item;
  const key = Put ? { pk: Put.Item!.pk, sk: Put.Item!.sk } : (Update ?? Delete ?? ConditionCheck)!.Key;
  return JSON.stringify(key);
}

/**
 * The items one step names alone, with a stand-in slug of its own. A group's transaction names the
 * union of its steps' items (mergeAdds sums the adds to one item), its status total and, at most,
 * one slug counter per new occurrence: counted once per step, so that grouping stays linear.
 */
function itemsOf(step: Step, i: number, shared: Shared): string[] {
  const deltas: Deltas = new Map();
  const writes = stepWrites(step, 0, `stand-in-${i}`, { ...shared, deltas });
  return [...writes, ...deltaWrites(deltas)].map(itemOf);
}

/**
 * Commits steps in transactions of up to 100 items, new occurrences' slugs claimed in each; answers
 * whether every step was committed before `deadline` (else the journal stays, for a repeat).
 */
/** Commits the steps in transactions until the deadline; answers how many steps are left. */
async function commitSteps(steps: Step[], shared: Shared, deadline: number): Promise<number> {
  const groups: Step[][] = [];
  let group: Step[] = [];
  let items = new Set<string>();
  let claims = 0;
  steps.forEach((step, i) => {
    const own = itemsOf(step, i, shared);
    const more = own.filter((k) => !items.has(k)).length;
    const claim = step.slugBase ? 1 : 0;
    // + 1: the group's status total.
    if (group.length && items.size + more + claims + claim + 1 > MAX_TRANSACTION_ITEMS) {
      groups.push(group);
      group = [];
      items = new Set();
      claims = 0;
    }
    group.push(step);
    for (const k of own) items.add(k);
    claims += claim;
  });
  if (group.length) groups.push(group);
  // A few transactions at once: a series' groups cover different months (tally items), so they
  // rarely collide, and one that loses a race is retried (commitWithSlugs).
  let next = 0;
  let done = true;
  // Whether each new occurrence's slug is free, read for all groups at once (one round trip, not one
  // per transaction); one taken meanwhile loses its claim and is drawn again (commitWithSlugs).
  const claimOf = (s: Step) => ({ scope: { type: 'event' as const }, base: s.slugBase! });
  const creating = steps.filter((s) => s.slugBase);
  const known = new Map((await slugStates(creating.map(claimOf))).map((state, i) => [creating[i]!, state]));
  // The budget bounds the answer, not the start of the last transaction: none is begun that the
  // longest one so far says would end after it.
  let longest = 0;
  const worker = async () => {
    while (next < groups.length) {
      if (Date.now() + longest > deadline) {
        done = false;
        return;
      }
      const g = groups[next++]!;
      const started = Date.now();
      const fresh = g.filter((s) => s.slugBase);
      try {
        await commitWithSlugs(
          fresh.map(claimOf),
          (slugs) => build(g, slugs, shared),
          commit,
          fresh.map((s) => known.get(s)!),
        );
      } catch (e) {
        // The others begin nothing more: the request fails now, and its repeat finishes the journal.
        next = groups.length;
        throw e;
      }
      longest = Math.max(longest, Date.now() - started);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, groups.length) }, worker));
  return done ? 0 : groups.slice(next).reduce((n, g) => n + g.length, 0);
}

/** Transactions of one journal in flight at once. */
const PARALLEL = 3;

/** One transaction's items: every step's, tallies and status totals summed. */
function build(g: Step[], slugs: string[], shared: Shared): PlannedWrite[] {
  const deltas: Deltas = new Map();
  const own = { ...shared, deltas };
  let claim = 0;
  const writes = g.flatMap((s) =>
    s.slugBase ? stepWrites(s, claim, slugs[claim++]!, own) : stepWrites(s, 0, '', own),
  );
  const created = g.filter((s) => !s.before && s.after).map((s) => s.after!.status);
  const totals = new Map<string, number>();
  for (const status of created) totals.set(status, (totals.get(status) ?? 0) + 1);
  return mergeAdds([
    ...writes,
    ...statusTotals(
      'event',
      [...totals].map(([status, n]) => ({ status, n })),
    ),
    ...deltaWrites(deltas),
  ]);
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
  const items = await batchGet(ids.map(keys.post), true);
  const current = new Map<number, EventRecord>();
  for (const item of items.values())
    if (item.deleting === undefined && item.type === 'event')
      current.set(Number(item.id), fromPostItem(item));
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
  const done = await commitSteps(steps, { gone, parentOf }, deadline);
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
