import type { CalEvent } from './api';
import { setUpDayClick } from './day-click';
import { statusLabel } from './detail';
import { openEditor, saveEditor, setUpFieldChecks, setUpRepeat } from './editor';
import { toInput } from './format';
import { setUpInlineCreate } from './inline-create';
import { enhanceMultiSelect, refreshMultiSelects } from './multi-select';
import { $ } from './page-dom';
import { isSignedIn, type PageContext } from './page-state';

/**
 * Where the editor (editor.ts) is opened from and what follows a save: *New event* (the calendar's day
 * at 18:00 for two hours), a click on a day or an hour (day-click.ts), an event's *Edit* (detail-dialog.ts).
 */

/** A new event's default times on a day: 18:00 to 20:00 of the viewer's zone, as the inputs take them. */
export function newEventTimes(day: Date): { start: string; end: string } {
  const start = new Date(day);
  start.setHours(18, 0, 0, 0);
  const pad = (n: number) => String(n).padStart(2, '0');
  const local = (d: Date) =>
    `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:00`;
  const end = new Date(start.getTime() + 2 * 3600_000);
  return { start: toInput(local(start)), end: toInput(local(end)) };
}

/** What the page says of a saved event. */
export const savedNotice = (saved: Pick<CalEvent, 'title' | 'status'>): string =>
  saved.status === 'publish'
    ? `Saved “${saved.title}”.`
    : `Saved “${saved.title}” (${statusLabel(saved.status)}).`;

/** *New event* and the editor's form: a save shows the event's day and draws it. */
export function setUpEditorActions(ctx: PageContext): void {
  $('new-event').addEventListener('click', () => openEditor(null, newEventTimes(ctx.calendar().getDate())));
  $('event-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    void saveEditor().then((saved) => {
      if (!saved) return;
      ctx.notice(savedNotice(saved));
      ctx.calendar().gotoDate(saved.start_date.slice(0, 10));
      ctx.calendar().refetchEvents();
    });
  });
}

/** The editor's own controls: repeat, field checks, the lists' pickers and inline creation; day clicks. */
export function setUpEditorFields(ctx: PageContext): void {
  setUpRepeat();
  setUpFieldChecks();
  setUpDayClick(
    $('calendar'),
    () => isSignedIn(ctx.page.get()),
    (at) => openEditor(null, at),
  );
  for (const id of ['e-organizer', 'e-categories', 'e-tags']) enhanceMultiSelect($(id));
  setUpInlineCreate('venue', $('e-venue'), () => $('e-venue').focus());
  setUpInlineCreate('organizer', $('e-organizer'), () => {
    refreshMultiSelects();
    $('e-organizer-search').focus();
  });
}
