import type { EventRecord, LinkField } from '../domain/event-record';
import { nowStamps } from '../domain/clock';
import { keys } from '../db/keys';
import { mergeAdds } from '../db/merge-adds';
import { batchGet } from '../db/query';
import { commit, MAX_TRANSACTION_ITEMS, type PlannedWrite } from '../db/transact';
import { type Deltas, deltaWrites, eventWrites } from './event-writes';
import {
  deletePostWrites,
  fromPostItem,
  newPostWrites,
  scheduleWrites,
  postUpdate,
  statusCount,
  statusTotals,
} from './posts';
import { commitWithSlugs, slugStates } from './slug-claims';

/**
 * The writes of a series' journal (services/series/journal.ts decides what each occurrence should
 * be): every occurrence it names created, updated or removed, in transactions of up to 100 items,
 * each occurrence whole in one of them.
 */

/** An occurrence changed between its read and its write: read again and go on. */
export class Moved extends Error {}

/** The occurrences a journal names, as they are now (consistent reads; one being deleted is absent). */
export async function readOccurrences(ids: number[]): Promise<Map<number, EventRecord>> {
  const items = await batchGet(ids.map(keys.post), true);
  const current = new Map<number, EventRecord>();
  for (const item of items.values())
    if (item.deleting === undefined && item.type === 'event')
      current.set(Number(item.id), fromPostItem(item));
  return current;
}

export interface Step {
  before?: EventRecord;
  after?: EventRecord;
  /** New occurrences: the slug base they claim. */
  slugBase?: string;
}

/** The items of one occurrence's write (its status total apart: one per transaction, summed). */
function stepWrites(step: Step, claim: number, slug: string, shared: Shared): PlannedWrite[] {
  const stale = () => new Moved();
  const o = {
    gone: shared.gone,
    linkedGone: shared.linkedGone,
    parentOf: shared.parentOf,
    deltas: shared.deltas,
  };
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

export interface Shared {
  gone: Set<string>;
  /** The error a link to a missing record answers (services/events). */
  linkedGone: (field: LinkField) => Error;
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
export async function commitSteps(steps: Step[], shared: Shared, deadline: number): Promise<number> {
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
