import { ticketState } from '../../domain/changes';
import { conflict } from '../../domain/errors';
import { type EventRecord, isTicketed } from '../../domain/event-record';
import { wallDiff, wallPlus } from '../../domain/wall-time';
import { assertCanDelete } from '../../domain/post-rules';
import { assertMeets } from '../../domain/revisions';
import { readOccurrences } from '../../repositories/series-journal';
import { ticketRemoval } from '../../repositories/ticket-removal';
import { commit, commitAll } from '../../repositories/unit-of-work';
import { deleteSeriesItem, getSeries, type SeriesItem, seriesWrite } from '../../repositories/series';
import { type Ref, retryStale, staleError, type Writer } from '../common';
import { loadEvent } from '../events';
import { type EventView, presentEvent } from '../events';
import { splitPlan } from './series';
import { finishJournal, newToken } from './journal';

/**
 * DELETE of an occurrence with scope=all or following (docs/recurrence.md): the series items take the
 * change (every occurrence trashed, or removed with force; a split first for `following`) and the
 * journals write it. The occurrence named answers, as a delete of one event does.
 */
export async function removeSeriesPart(
  ref: Ref,
  current: EventRecord,
  force: boolean,
  scope: 'all' | 'following',
  ctx: Writer,
): Promise<EventView & { attendees_deleted?: number }> {
  assertCanDelete(current, ctx.user, force);
  assertMeets(ctx.ifMatch, current, 'event');
  const occurrence = current.data.series!;
  let series = await getSeries(occurrence.id);
  if (series?.journal) {
    await finishJournal(series.id);
    series = await getSeries(occurrence.id);
  }
  if (!series) throw staleError(ctx, 'event')();
  const stale = staleError(ctx, 'event');
  const view = force ? await presentEvent(current, ctx) : undefined;
  const all = scope === 'all' || occurrence.start <= series.start;
  const version = series.version;
  let attendees = 0;
  if (all) {
    if (force) attendees = await removeTickets(Object.keys(series.members).map(Number), ctx);
    const entries = Object.entries(series.members).map(([id, start]) =>
      force ? { id: Number(id), remove: true as const } : { id: Number(id), start },
    );
    const next: SeriesItem = {
      ...series,
      template: force ? series.template : { ...series.template, status: 'trash' },
      ...(force ? { members: {}, ended: true } : {}),
      version: version + 1,
      journal: { token: newToken(), entries, ...(force ? {} : { override: ['status'] }) },
    };
    await commit([seriesWrite(next, version, stale)]);
    await finishJournal(series.id);
    if (force) await deleteSeriesItem(series.id);
  } else {
    const dur = wallDiff(series.end, series.start);
    const s = series;
    const { before, after } = await splitPlan(series, occurrence.start, {
      move: (from) => ({
        shift: 0,
        anchor: { start: from, end: wallPlus(from, dur), allDay: s.allDay, timezone: s.timezone },
      }),
      firstId: current.id,
      template: { ...series.template, status: 'trash' },
      override: ['status'],
    });
    if (force) {
      // The later occurrences go; the earlier ones show the shortened lines.
      const gone = Object.keys(series.members)
        .filter((id) => !(id in before.members))
        .map((id) => ({ id: Number(id), remove: true as const }));
      attendees = await removeTickets(
        gone.map((g) => g.id),
        ctx,
      );
      const cut = {
        ...before,
        journal: { ...before.journal!, entries: [...before.journal!.entries, ...gone] },
      };
      await commit([seriesWrite(cut, version, stale)]);
      await finishJournal(series.id);
    } else {
      await commit([
        seriesWrite(before, version, stale),
        seriesWrite({ ...after, slug: current.slug }, undefined, stale),
      ]);
      await finishJournal(series.id);
      await finishJournal(current.id);
    }
  }
  return view ? { ...view, attendees_deleted: attendees } : presentEvent(await loadEvent(ref), ctx);
}

/**
 * The tickets, attendees and mails of the occurrences a permanent delete takes, removed before the
 * journal deletes the occurrences (its steps write events only): each event's as a single event's
 * permanent delete plans them, in writes of their own, tried again when a registration races them.
 * Answers how many attendees went.
 */
async function removeTickets(ids: number[], ctx: Writer): Promise<number> {
  let attendees = 0;
  for (const event of (await readOccurrences(ids)).values()) {
    if (!isTicketed(event)) continue;
    attendees += await retryStale(ctx, async () => {
      const removal = await ticketRemoval(event.id, ticketState(event), () => conflict('event'));
      await commitAll(removal.writes);
      return removal.attendees;
    });
  }
  return attendees;
}
