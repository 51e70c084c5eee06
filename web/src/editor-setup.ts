import { setUpDayClick } from './day-click';
import { openEditor } from './editor';
import { setUpFieldChecks } from './editor-messages';
import { setUpRepeat } from './editor-repeat';
import { saveEditor } from './editor-save';
import { setUpInlineCreate } from './inline-create';
import { enhanceMultiSelect, refreshMultiSelects } from './multi-select';
import { $, type PageContext } from './page-dom';
import { newEventTimes, savedNotice } from './new-event';
import { isSignedIn } from './page-state';

/**
 * Where the editor (editor.ts, its save editor-save.ts) is opened from and what follows a save: *New
 * event* (the calendar's day at 18:00 for two hours), a click on a day or an hour (day-click.ts), an
 * event's *Edit* (detail-dialog.ts).
 */

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
