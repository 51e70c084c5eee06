import type { Calendar } from '@fullcalendar/core';

/**
 * The calendar's states, each a state of its own (issue 29): loading (the calendar marked busy), failed
 * (the reason and a *Try again* button), empty (saying so, with *Clear the filters* when filters hide
 * events) and loaded ("N events shown.", counting the events the view draws: not the fetched window, and
 * after a change of view that needed no fetch too).
 */
export interface ViewStatus {
  loading(): void;
  failed(message: string): void;
  /** The load ended (FullCalendar's `loading(false)`): the count, unless it failed. */
  settled(): void;
  /** After a load or a change of view: the count, or the empty state. */
  shown(): void;
}

export function viewStatus(o: {
  status: HTMLElement;
  calendarEl: HTMLElement;
  calendar: () => Calendar;
  retry: () => void;
  filtered: () => boolean;
  clearFilters: () => void;
}): ViewStatus {
  const { calendarEl } = o;
  // The actions of a state sit beside the status line (kept to its text, which screen readers announce).
  const actions = document.createElement('div');
  actions.id = 'view-state';
  actions.className = 'view-state';
  o.status.after(actions);
  let busy = false;
  let error = false;

  const set = (
    state: 'loading' | 'error' | 'empty' | 'shown',
    text: string,
    button?: [string, () => void],
  ) => {
    o.status.textContent = text;
    o.status.dataset.state = state;
    calendarEl.setAttribute('aria-busy', String(state === 'loading'));
    calendarEl.classList.toggle('is-loading', state === 'loading');
    actions.replaceChildren();
    if (button) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = button[0];
      b.addEventListener('click', button[1]);
      actions.append(b);
    }
  };

  const status: ViewStatus = {
    loading() {
      busy = true;
      error = false;
      set('loading', 'Loading events…');
    },
    failed(message) {
      busy = false;
      error = true;
      set('error', `Could not load events: ${message}`, ['Try again', o.retry]);
    },
    settled() {
      busy = false;
      status.shown();
    },
    shown() {
      if (busy || error) return;
      const n = countInView(o.calendar());
      if (n > 0) set('shown', `${n} event${n === 1 ? '' : 's'} shown.`);
      else if (o.filtered()) set('empty', 'No events shown.', ['Clear the filters', o.clearFilters]);
      else set('empty', 'No events shown.');
    },
  };
  return status;
}

/** The events the current view draws: those overlapping its range (each once, however many days). */
export function countInView(calendar: Calendar): number {
  const { activeStart, activeEnd } = calendar.view;
  return calendar
    .getEvents()
    .filter((e) => e.start && e.start < activeEnd && (e.end ? e.end > activeStart : e.start >= activeStart))
    .length;
}
