import { Calendar, type EventInput, type EventSourceFuncArg, type LocaleInput } from '@fullcalendar/core';
import dayGridPlugin from '@fullcalendar/daygrid';
import listPlugin from '@fullcalendar/list';
import timeGridPlugin from '@fullcalendar/timegrid';
import { signOut } from './account';
import { ApiError, listAll } from './api';
import { syncUrl } from './address';
import { coloursReady } from './colours';
import { legendElement, renderLegend } from './legend';
import { moreLinkIsButton, unlinkDayLabels } from './crawlable';
import { el } from './detail';
import { NEXT_DAY_THRESHOLD_H, localDate, overlaps, rangeQuery, toInputEvent } from './event-input';
import { activeFilters, apiFilters } from './filters';
import { TIME_FORMAT } from './format';
import { $, type PageContext } from './page-dom';
import { isSignedIn } from './page-state';
import { frameHours, scrollToOpeningHour } from './time-frame';
import { viewStatus, type ViewStatus } from './view-status';

/**
 * The calendar: FullCalendar fed by GET /events (every page, by `next_rest_url`) for the visible range
 * and the state's filters; its view and date go to the state (and so to the address).
 */
export function createCalendar(
  ctx: PageContext,
  o: { locale: LocaleInput | string; narrow: boolean; openEvent: (id: string) => void },
): { calendar: Calendar; legend: HTMLElement } {
  const { locale, narrow } = o;
  // FullCalendar starts loading in its constructor, before `calendar` is set.
  let calendar: Calendar | undefined;
  let inFlight: AbortController | null = null;
  let rendered = false;
  let wasTimeGrid: boolean | null = null;
  let hourPending = false;
  const legend = legendElement();
  const showView = () => {
    if (!calendar) return;
    status.shown();
    renderLegend(legend, calendar);
  };
  /** What the calendar shows: loading, failed (with a retry), empty, or how many events (view-status.ts). */
  const status: ViewStatus = viewStatus({
    status: $('status'),
    calendarEl: $('calendar'),
    calendar: () => calendar!,
    retry: () => calendar!.refetchEvents(),
    filtered: () => activeFilters(ctx.page.get()) > 0,
    clearFilters: () => $('f-clear').click(),
  });

  /** The events to draw for the visible range: those that overlap it (event-input.ts). */
  async function fetchEvents(info: EventSourceFuncArg): Promise<EventInput[]> {
    inFlight?.abort();
    const controller = new AbortController();
    inFlight = controller;
    const s = ctx.page.get();
    const query = {
      ...apiFilters(s, isSignedIn(s)),
      ...rangeQuery(info.start, info.end),
      strict_dates: true,
      per_page: 50,
    };
    try {
      const events = (await listAll('listEvents', { query, signal: controller.signal })).filter((e) =>
        overlaps(e, info.start, info.end),
      );
      await coloursReady;
      // Read once the answer is in: the view the range was fetched for is the one drawn by then.
      const timeGrid = (calendar ? calendar.view.type : ctx.page.get().view).startsWith('timeGrid');
      return events.map((e) => toInputEvent(e, timeGrid));
    } catch (e) {
      if ((e as Error).name === 'AbortError') return [];
      status.failed((e as Error).message);
      if (e instanceof ApiError && e.status === 401) signOut(ctx, 'Your token was refused; sign in again.');
      return [];
    }
  }

  const { view, date } = ctx.page.get();
  calendar = new Calendar($('calendar'), {
    plugins: [dayGridPlugin, timeGridPlugin, listPlugin],
    initialView: view,
    initialDate: date || undefined,
    timeZone: 'local',
    locale,
    height: 'auto',
    // A one-hour event from 23:30 to 00:30 is drawn on its first day alone (the default, 00:00, drew
    // two); a timed event ending before 06:00 does not reach into that day in the month view.
    nextDayThreshold: `${String(NEXT_DAY_THRESHOLD_H).padStart(2, '0')}:00:00`,
    firstDay: 1,
    nowIndicator: true,
    eventInteractive: true,
    dayMaxEvents: narrow ? 2 : 4,
    // One time format everywhere (format.ts): the browser's language picks 12 or 24 hours.
    eventTimeFormat: TIME_FORMAT,
    slotLabelFormat: TIME_FORMAT,
    headerToolbar: narrow
      ? { left: 'prev,next', center: 'title', right: 'today' }
      : {
          left: 'prev,next today',
          center: 'title',
          right: 'dayGridMonth,timeGridWeek,timeGridDay,listMonth',
        },
    footerToolbar: narrow ? { center: 'dayGridMonth,timeGridWeek,timeGridDay,listMonth' } : undefined,
    buttonText: {
      listMonth: (typeof locale === 'object' && locale.buttonText?.list) || 'list',
    },
    events: (info, ok, fail) => {
      fetchEvents(info).then(ok, fail);
    },
    loading: (isLoading) => {
      if (isLoading) return status.loading();
      status.settled();
      if (hourPending) scrollToOpeningHour($('calendar'));
      hourPending = false;
    },
    eventsSet: () => showView(),
    eventDidMount: (arg) => {
      // A chip cut short in the month view still names the event (a tooltip), with its time.
      arg.el.title = arg.timeText ? `${arg.timeText} ${arg.event.title}` : arg.event.title;
      // The list view says where.
      const venue = arg.event.extendedProps.venue as string;
      const cell = arg.el.querySelector('.fc-list-event-title');
      if (venue && cell) cell.append(el('span', { class: 'event-venue' }, venue));
    },
    // Day cells are named by their day number's link, whose name ("12 March 2031") is not the cell's
    // visible text (axe: label-content-name-mismatch); a grid cell needs no name of its own.
    dayCellDidMount: (arg) => arg.el.removeAttribute('aria-labelledby'),
    // No anchor without an address (crawlable.ts).
    dayHeaderDidMount: (arg) => unlinkDayLabels(arg.el),
    moreLinkDidMount: (arg) => moreLinkIsButton(arg.el),
    eventClick: (arg) => {
      arg.jsEvent.preventDefault();
      o.openEvent(arg.event.id);
    },
    datesSet: (arg) => {
      ctx.page.update({ view: arg.view.type, date: localDate(arg.view.currentStart) });
      // The view the page opens on replaces its address; each one browsed after is an entry of its own.
      syncUrl(ctx, rendered);
      rendered = true;
      // Long timed events are drawn differently in the week and day views (toInputEvent): a change
      // between those and the others asks again; otherwise the count follows the new view.
      const timeGrid = arg.view.type.startsWith('timeGrid');
      frameHours($('calendar'), timeGrid);
      // At 08:00 now, and again once the events are in (the all-day row grows with them).
      hourPending = timeGrid;
      if (timeGrid) scrollToOpeningHour($('calendar'));
      if (wasTimeGrid !== null && timeGrid !== wasTimeGrid) calendar!.refetchEvents();
      else showView();
      wasTimeGrid = timeGrid;
    },
  });
  calendar.render();
  // The toolbar's arrow icons are decoration inside labelled buttons (axe: role-img-alt).
  const hideIcons = () => {
    $('calendar')
      .querySelectorAll('.fc-icon:not([aria-hidden])')
      .forEach((i) => i.setAttribute('aria-hidden', 'true'));
  };
  hideIcons();
  new MutationObserver(hideIcons).observe($('calendar'), { childList: true, subtree: true });
  return { calendar, legend };
}
