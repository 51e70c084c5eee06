import { config } from '../../config';
import { invalidParam, seriesBusy } from '../../domain/errors';
import type { EventRecord, Occurrence } from '../../domain/event-record';
import type { SeriesTimes } from '../../domain/recurrence';
import { cutLines, normalLines, restLines } from '../../domain/recurrence-lines';
import { editedFields, sharedWith, TIME_FIELDS } from '../../domain/series-fields';
import { writtenWall } from '../../domain/event-times';
import { withTimeMaths } from '../../domain/time-maths';
import { wallDiff, wallPlus } from '../../domain/wall-time';
import type { PlannedWrite } from '../../repositories/unit-of-work';
import {
  getSeries,
  getSeriesState,
  type JournalEntry,
  moveJournalDue,
  type SeriesItem,
  seriesWrite,
  type Template,
  templateOf,
  newOccurrenceIds,
} from '../../repositories/series';
import { staleError, type Writer } from '../common';
import { finishJournal, newToken } from './journal';

/**
 * Series writes (docs/recurrence.md): a create with `recurrence`, and the scopes of an occurrence's
 * update. The occurrence a request names is written by the ordinary event write, with the series
 * items in its transaction (a hook of event-write.ts); the other occurrences follow from the journal.
 */

export type Scope = 'this' | 'following' | 'all';

/** What an event write adds for a series: prepared on the next record, written with it, finished after. */
export interface SeriesHook {
  /** Sets the record's series fields (400s first); returns the ID a new record must take. */
  prepare(record: EventRecord): Promise<number | undefined>;
  /** Items of the record's own transaction: the series items and their journals. */
  writes(saved: EventRecord): PlannedWrite[];
  /** Writes the other occurrences (the journals); what is left to the finisher, if anything. */
  finish(saved: EventRecord): Promise<SeriesProgress | undefined>;
}

/** A series write that answers before its occurrences are all written (issue 38): how many are which. */
export interface SeriesProgress {
  written: number;
  pending: number;
}

/**
 * Finishes the journals of a write within the request's budget. What is left is handed to the
 * finisher at once (due now: this request writes no more of it), and counted for the 202.
 */
async function finishing(seriesIds: number[], total: number): Promise<SeriesProgress | undefined> {
  let pending = 0;
  for (const id of seriesIds) {
    const progress = { pending: 0 };
    if (await finishJournal(id, undefined, progress)) continue;
    pending += Math.max(1, progress.pending);
    const state = await getSeriesState(id);
    if (state?.journalDueKey && (state.journalDueMs ?? 0) > Date.now())
      await moveJournalDue(id, state.journalDueKey, Date.now());
  }
  return pending ? { written: Math.max(1, total - pending), pending } : undefined;
}

interface Anchor extends SeriesTimes {
  timezone: string;
}

/** The lines expanded from `anchor` up to `horizon` (rrule-temporal is loaded by series writes only). */
export async function expand(lines: string[], anchor: Anchor, horizon: string) {
  const { expandSeries } = await import('../../domain/recurrence');
  return withTimeMaths((maths) =>
    expandSeries(maths, maths.zone(anchor.timezone) ?? maths.site().zone, lines, anchor, horizon),
  );
}

/** The horizon of a series in `timezone`: the setting's months from now, in wall time. */
export function horizonIn(timezone: string, now = new Date()): Promise<string> {
  return withTimeMaths((maths) => {
    const zone = maths.zone(timezone) ?? maths.site().zone;
    return maths.wall(maths.plusMonths(maths.at(now, zone), config.seriesHorizonMonths));
  });
}

const anchorOf = (e: EventRecord): Anchor => ({
  start: e.data.start,
  end: e.data.end,
  allDay: e.data.allDay,
  timezone: e.data.timezone,
});

const later = (a: string, b: string) => (a > b ? a : b);

/**
 * The anchor of a new series: the record's times, but the wall time the request wrote when reading
 * moved it forward out of a daylight-saving gap (issue 43). The rule recurs at the written time, and
 * only the occurrence on the gap day moves (RFC 5545 §3.3.5), keeping its length.
 */
function writtenAnchor(record: EventRecord, sentStart: unknown): Anchor {
  const anchor = anchorOf(record);
  const written = writtenWall(sentStart);
  if (
    anchor.allDay ||
    !written ||
    written >= anchor.start ||
    written.slice(0, 10) !== anchor.start.slice(0, 10)
  )
    return anchor;
  return { ...anchor, start: written, end: wallPlus(written, wallDiff(anchor.end, anchor.start)) };
}

/**
 * POST /events with `recurrence`: the first occurrence is the event written; the others follow. The
 * same for a single event given a rule (`first`: its ID, which becomes the series'), as its update.
 */
export function creatingSeries(
  sentLines: string[],
  ctx: Writer,
  first?: number,
  /** The `start_date` the request sent, if any: the rule's anchor when it fell in a gap. */
  sentStart?: unknown,
): SeriesHook {
  const lines = normalLines(sentLines);
  let ids: number[] = [];
  let plan: { starts: string[]; text: string; ended: boolean; horizon: string; anchor: Anchor } | undefined;
  return {
    async prepare(record) {
      const anchor = writtenAnchor(record, sentStart);
      const horizon = later(await horizonIn(record.data.timezone), anchor.start);
      const series = await expand(lines, anchor, horizon);
      const n = series.occurrences.length;
      ids =
        first === undefined
          ? await newOccurrenceIds(n)
          : [first, ...(n > 1 ? await newOccurrenceIds(n - 1) : [])];
      plan = {
        starts: series.occurrences.map((o) => o.start),
        text: series.text,
        ended: series.ended,
        horizon,
        anchor,
      };
      record.data.series = {
        id: ids[0]!,
        lines,
        text: series.text,
        start: anchor.start,
        exception: false,
        edited: [],
      };
      return first === undefined ? ids[0] : undefined;
    },
    writes(saved) {
      const p = plan!;
      const item: SeriesItem = {
        id: ids[0]!,
        lines,
        text: p.text,
        ...p.anchor,
        horizon: p.horizon,
        ended: p.ended,
        slug: saved.slug,
        template: templateOf(saved),
        members: Object.fromEntries(p.starts.map((s, i) => [String(ids[i]), s])),
        version: 1,
        journal: {
          token: newToken(),
          entries: p.starts.slice(1).map((start, i) => ({ id: ids[i + 1]!, start })),
        },
      };
      return [seriesWrite(item, undefined, staleError(ctx, 'event'))];
    },
    finish: (saved) => finishing([saved.data.series!.id], ids.length),
  };
}

const sameLines = (sent: string[] | undefined, b: string[]) => {
  const a = sent && normalLines(sent);
  return a !== undefined && a.length === b.length && a.every((l, i) => l === b[i]);
};

const scopeOnSingle = () =>
  invalidParam(
    'scope',
    'scope applies to an occurrence of a series; this event is a single event.',
    'rest_invalid_param',
  );

/**
 * The series part of an update of `current` with `scope` (undefined: a single event, or `this`). A
 * journal left by an interrupted write is finished first, and the occurrence read again.
 */
export async function updatingOccurrence(
  current: EventRecord,
  body: { recurrence?: string[]; start_date?: unknown },
  sent: Set<string>,
  scope: Scope | undefined,
  ctx: Writer,
  reload: () => Promise<EventRecord>,
): Promise<{ current: EventRecord; hook?: SeriesHook }> {
  if (!current.data.series) {
    // A rule on a single event makes it the first occurrence of a new series, as Google Calendar does.
    if (sent.has('recurrence') && (scope ?? 'all') === 'all')
      return {
        current,
        hook: creatingSeries(body.recurrence!, ctx, current.id, body.start_date),
      };
    if (scope !== undefined) throw scopeOnSingle();
    return { current };
  }
  const state = await getSeriesState(current.data.series.id);
  let series = state?.series;
  if (series?.journal) {
    // A split beside another write of this series that may still be under way (its journal is not
    // yet due for the finisher) would cut a rule that write is cutting or moving (issue 43). Other
    // changes finish the journal first, which is also how a failed write's repeat goes through.
    if (scope === 'following' && (state?.journalDueMs ?? 0) > Date.now()) throw seriesBusy(series.id);
    await finishJournal(series.id);
    current = await reload();
    series = current.data.series ? await getSeries(current.data.series.id) : undefined;
    if (!current.data.series) throw staleError(ctx, 'event')();
    if (series?.journal) throw seriesBusy(series.id);
  }
  // An occurrence its series does not list (or places elsewhere) is being moved by another write.
  if (series && series.members[String(current.id)] !== current.data.series.start) throw seriesBusy(series.id);
  // The same rule without a scope on the series' first occurrence repeats the write that made a
  // single event this series (an interrupted one is finished above): it is that write again.
  if (scope === undefined && series?.id === current.id && sameLines(body.recurrence, series.lines))
    scope = 'all';
  if (!series || (scope ?? 'this') === 'this') {
    if (sent.has('recurrence'))
      throw invalidParam(
        'recurrence',
        'A rule change applies to the series: send it with scope=all or scope=following.',
        'rest_invalid_param',
      );
    return { current, hook: editingThis(current.data.series, sent) };
  }
  const split = scope === 'following' && current.data.series.start > series.start;
  return {
    current,
    hook: split ? splitting(series, current, body, sent) : editingAll(series, current, body, sent, ctx),
  };
}

/** scope=this: the occurrence becomes an exception and keeps what was edited on it. */
function editingThis(occurrence: Occurrence, sent: Set<string>): SeriesHook {
  return {
    async prepare(record) {
      const edited = [...new Set([...occurrence.edited, ...editedFields(sent)])].sort();
      record.data.series = { ...occurrence, exception: true, edited };
      return undefined;
    },
    writes: () => [],
    finish: async () => undefined,
  };
}

interface Placed {
  /** Occurrence ID → rule start, of the series after the write. */
  members: Record<string, string>;
  entries: JournalEntry[];
}

/**
 * Which occurrences a rule keeps (their rule starts moved by `shift` and still produced), which it
 * drops and which it adds (new IDs), as journal entries; `skip` is the occurrence the request writes.
 */
async function place(
  old: Array<[string, string]>,
  starts: string[],
  shift: number,
  skip: number,
): Promise<Placed> {
  const free = new Set(starts);
  const members: Record<string, string> = {};
  const entries: JournalEntry[] = [];
  for (const [id, start] of old) {
    const moved = wallPlus(start, shift);
    if (free.delete(moved)) {
      members[id] = moved;
      if (Number(id) !== skip) entries.push({ id: Number(id), start: moved });
    } else entries.push({ id: Number(id), remove: true });
  }
  const fresh = [...free];
  const ids = fresh.length ? await newOccurrenceIds(fresh.length) : [];
  fresh.forEach((start, i) => {
    members[String(ids[i])] = start;
    entries.push({ id: ids[i]!, start });
  });
  return { members, entries };
}

/** How the written occurrence moved, and the anchor the series moves to with it. */
function moved(series: SeriesItem, from: string, current: EventRecord, next: EventRecord, sent: Set<string>) {
  const timed = TIME_FIELDS.some((f) => sent.has(f));
  const shift = timed ? wallDiff(next.data.start, current.data.start) : 0;
  const start = wallPlus(from, shift);
  const anchor: Anchor = timed
    ? {
        start,
        end: wallPlus(start, wallDiff(next.data.end, next.data.start)),
        allDay: next.data.allDay,
        timezone: next.data.timezone,
      }
    : {
        start: from,
        end: wallPlus(from, wallDiff(series.end, series.start)),
        allDay: series.allDay,
        timezone: series.timezone,
      };
  return { shift, anchor };
}

const outside = () =>
  invalidParam(
    'recurrence',
    'The new rule does not place this occurrence: send the change from an occurrence it keeps.',
    'rest_invalid_param',
  );

/** The written occurrence's series fields after a scope=all or following write. */
function occurrenceAfter(
  current: EventRecord,
  series: Pick<SeriesItem, 'id' | 'lines' | 'text'>,
  start: string,
  sent: Set<string>,
  exception: boolean,
): Occurrence {
  const sentFields = editedFields(sent);
  return {
    id: series.id,
    lines: series.lines,
    text: series.text,
    start,
    exception,
    edited: current.data.series!.edited.filter((f) => !sentFields.includes(f)),
  };
}

/** scope=all: every occurrence takes the change; a time change moves them all, a rule change re-places them. */
function editingAll(
  series: SeriesItem,
  current: EventRecord,
  body: { recurrence?: string[] },
  sent: Set<string>,
  ctx: Writer,
): SeriesHook {
  let next: SeriesItem | undefined;
  const sentFields = editedFields(sent);
  return {
    async prepare(record) {
      const { shift, anchor } = moved(series, series.start, current, record, sent);
      const lines = sent.has('recurrence') ? normalLines(body.recurrence!) : series.lines;
      const horizon = later(series.horizon, await horizonIn(anchor.timezone));
      const expanded = await expand(lines, anchor, horizon);
      const placed = await place(
        Object.entries(series.members),
        expanded.occurrences.map((o) => o.start),
        shift,
        current.id,
      );
      const start = placed.members[String(current.id)];
      if (!start) throw outside();
      next = {
        ...series,
        lines,
        text: expanded.text,
        ...anchor,
        horizon,
        ended: expanded.ended,
        members: placed.members,
        version: series.version + 1,
        journal: { token: newToken(), entries: placed.entries },
      };
      record.data.series = occurrenceAfter(current, next, start, sent, current.data.series!.exception);
      return undefined;
    },
    writes(saved) {
      const item = {
        ...next!,
        template: sharedWith(series.template, saved, sentFields),
      };
      return [seriesWrite(item, series.version, staleError(ctx, 'event'))];
    },
    finish: () => finishing([series.id], Object.keys(next!.members).length),
  };
}

/**
 * scope=following: the series ends before this occurrence, and a new series (this occurrence's ID)
 * starts with it, with the change; the later occurrences move to it (as Google's API splits a series).
 */
function splitting(
  series: SeriesItem,
  current: EventRecord,
  body: { recurrence?: string[] },
  sent: Set<string>,
): SeriesHook {
  let before: SeriesItem | undefined;
  let after: SeriesItem | undefined;
  const sentFields = editedFields(sent);
  return {
    async prepare(record) {
      const plan = await splitPlan(series, current.data.series!.start, {
        recurrence: sent.has('recurrence') ? normalLines(body.recurrence!) : undefined,
        move: (from) => moved(series, from, current, record, sent),
        firstId: current.id,
        leader: current.id,
      });
      before = plan.before;
      after = plan.after;
      const start = after.members[String(current.id)];
      if (!start) throw outside();
      record.data.series = occurrenceAfter(current, after, start, sent, false);
      return undefined;
    },
    writes(saved) {
      // Another write of the series won the race: the client's change is its to send again.
      const busy = () => seriesBusy(series.id);
      return [
        seriesWrite(before!, series.version, busy),
        seriesWrite(
          {
            ...after!,
            slug: saved.slug,
            template: sharedWith(series.template, saved, sentFields),
          },
          undefined,
          busy,
        ),
      ];
    },
    finish: (saved) =>
      finishing(
        [series.id, saved.id],
        Object.keys(before!.members).length + Object.keys(after!.members).length,
      ),
  };
}

/**
 * A series cut at the rule start `cut`: `before` keeps the occurrences before it (its lines end there),
 * `after` (ID `firstId`) takes the others, re-placed by its own rule from the moved anchor.
 */
export async function splitPlan(
  series: SeriesItem,
  cut: string,
  o: {
    recurrence?: string[];
    move: (from: string) => { shift: number; anchor: Anchor };
    firstId: number;
    /** The occurrence the request writes itself, left out of the journal. */
    leader?: number;
    template?: Template;
    override?: string[];
  },
): Promise<{ before: SeriesItem; after: SeriesItem }> {
  const earlier = Object.entries(series.members).filter(([, s]) => s < cut);
  const rest = Object.entries(series.members).filter(([, s]) => s >= cut);
  const oldLines = cutLines(series.lines, cut, series.allDay);
  const kept = await expand(oldLines, { ...series }, series.horizon);
  const { shift, anchor } = o.move(cut);
  const lines = o.recurrence ?? restLines(series.lines, kept.occurrences.length);
  const horizon = later(series.horizon, await horizonIn(anchor.timezone));
  const expanded = await expand(lines, anchor, horizon);
  const placed = await place(
    rest,
    expanded.occurrences.map((x) => x.start),
    shift,
    o.leader ?? 0,
  );
  const before: SeriesItem = {
    ...series,
    lines: oldLines,
    text: kept.text,
    ended: true,
    members: Object.fromEntries(earlier),
    version: series.version + 1,
    // The earlier occurrences show the shortened lines.
    journal: {
      token: newToken(),
      entries: earlier.map(([id, start]) => ({ id: Number(id), start })),
    },
  };
  const after: SeriesItem = {
    ...series,
    id: o.firstId,
    lines,
    text: expanded.text,
    ...anchor,
    horizon,
    ended: expanded.ended,
    template: o.template ?? series.template,
    members: placed.members,
    version: 1,
    journal: {
      token: newToken(),
      entries: placed.entries,
      ...(o.override ? { override: o.override } : {}),
    },
  };
  return { before, after };
}
