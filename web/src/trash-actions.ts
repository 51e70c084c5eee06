import { type CalEvent, cal } from './api';
import { $, type PageContext } from './page-dom';
import { statusLabel } from './format';
import { askScope } from './scope';
import { beforeSeriesTrash } from './series-undo';
import { confirmTrash, offerUndo } from './trash-undo';

/**
 * Trash is DELETE (without force); restoring is an update of the status (decisions §6). Trashing an
 * occurrence of a series asks which of its events first (scope.ts); a restore brings back the one
 * occurrence. Each trash offers an *Undo* (trash-undo.ts; a series' part, series-undo.ts).
 */
export async function changeStatus(
  ctx: PageContext,
  e: CalEvent,
  to: 'trash' | 'restore',
  etag: string | null,
): Promise<void> {
  const refetch = () => ctx.calendar().refetchEvents();
  const scope = to === 'trash' && e.series_id != null ? await askScope('trash', e.title) : undefined;
  if (scope === null) return;
  // A single event's trash asks first (an occurrence's question of scope is its confirmation).
  if (to === 'trash' && !scope && !(await confirmTrash(e.title))) return;
  try {
    let trashed: string | null = null;
    // A series' part trashed comes back as a whole (series-undo.ts): what it leaves cancelled is read first.
    const series =
      to === 'trash' && (scope === 'all' || scope === 'following') ? await beforeSeriesTrash(e, scope) : null;
    if (to === 'trash')
      ({ etag: trashed } = await cal.deleteEvent({
        path: { id: e.id },
        ifMatch: etag,
        ...(scope ? { query: { scope } } : {}),
      }));
    else await cal.updateEvent({ path: { id: e.id }, body: { status: 'draft' }, ifMatch: etag });
    $<HTMLDialogElement>('detail').close();
    // One event (or one occurrence) comes back by its status; a series' part by its status for all of it.
    if (series)
      offerUndo(
        `“${e.title}” and the series' ${scope === 'all' ? 'other' : 'following'} events moved to the trash.`,
        async () => {
          const cancelled = await series.undo(trashed);
          refetch();
          return `“${e.title}” and the series are back (${statusLabel(e.status)})${cancelled ? `; ${cancelled} cancelled before ${cancelled === 1 ? 'stays' : 'stay'} in the trash` : ''}.`;
        },
      );
    else if (to === 'trash' && (!scope || scope === 'this'))
      offerUndo(`“${e.title}” moved to the trash.`, async () => {
        await cal.updateEvent({ path: { id: e.id }, body: { status: e.status }, ifMatch: trashed });
        refetch();
        return `“${e.title}” is back (${statusLabel(e.status)}).`;
      });
    else
      ctx.notice(to === 'trash' ? `“${e.title}” moved to the trash.` : `“${e.title}” restored as a draft.`);
    refetch();
  } catch (err) {
    ctx.notice(`Could not change “${e.title}”: ${(err as Error).message}`);
  }
}
