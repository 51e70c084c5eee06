import type { Calendar } from '@fullcalendar/core';
import { readAccount, setUpAccount, takeSignInCallback } from './account';
import { followHistory, leaveEventAddress } from './address';
import { createCalendar } from './calendar-view';
import { setCategories } from './colours';
import { readEvent, showDetail } from './detail-dialog';
import { setUpEditorActions, setUpEditorFields } from './editor-setup';
import { loadOptions, renderFilters, setUpFilters } from './filter-panel';
import { setUpFilterToggle } from './filter-toggle';
import { activeFilters, badDate, readState } from './filters';
import { viewerZone } from './format';
import { calendarLocale } from './locale';
import { $, notice, yieldToMain, type PageContext } from './page-dom';
import { setUpManageViews } from './manage-views';
import { eventSlugOf, manageViewOf } from './page-route';
import { createPage } from './page-state';
import { renderPage } from './render';
import { setUpSubscribe } from './subscribe';

/**
 * The calendar page: one state (page-state.ts), one render of it (render.ts), and its features, each a
 * module: the account (account.ts), the filters (filter-panel.ts), the calendar (calendar-view.ts), an
 * event's detail (detail-dialog.ts) with its tickets (tickets-dialog.ts) and, for those who manage them,
 * its check-in and attendees (manage-views.ts), its trash (trash-actions.ts, series included), the editor
 * (editor-setup.ts), the subscribe menu (subscribe.ts) and the address (address.ts, page-route.ts).
 * This file makes the state and starts the features in order.
 */

// The sign-in's answer leaves the URL before the filters are read from it.
const signInCallback = takeSignInCallback();
const eventPage = eventSlugOf(location.pathname);
// An event's check-in or attendee list named by the address (read before the calendar rewrites it).
const manageAtStart = manageViewOf(location.pathname, location.search);
const page = createPage({
  ...readState(location.search, location.pathname),
  account: readAccount(),
  openSlug: null,
  // An event's page returns to the calendar at `/`; a category's, tag's, venue's page to itself.
  home: eventPage
    ? { path: '/', title: 'Event calendar' }
    : { path: location.pathname, title: document.title },
});
page.subscribe(renderPage);
let calendar: Calendar;
const ctx: PageContext = { page, notice, calendar: () => calendar };
const openEvent = (ref: { id: string } | { slug: string }, read?: ReturnType<typeof readEvent>) =>
  void showDetail(ctx, ref, read);

async function start(): Promise<void> {
  // An event's page opens the calendar at the event's day, with the event open: its read begins now,
  // beside the calendar's start, not after it (the detail opens a round trip sooner).
  const eventRead = eventPage ? readEvent({ slug: eventPage }) : undefined;
  // Its failure is the detail's to tell, when it opens (not an unhandled rejection meanwhile).
  eventRead?.catch(() => undefined);
  // FullCalendar's labels in the browser's language: its locale file, fetched before the first draw.
  const locale = await calendarLocale();
  renderPage(page.get());
  const recordDate = document.querySelector<HTMLElement>('#record[data-kind="event"]')?.dataset.date;
  if (eventPage && !page.get().date && recordDate) page.update({ date: recordDate });
  const bad = badDate(location.search);
  if (bad) notice(`“${bad}” in the address is not a date of the calendar: showing today instead.`);
  const narrow = window.matchMedia('(max-width: 600px)').matches;
  // A phone opens on the list unless the URL names a view.
  if (narrow && !new URLSearchParams(location.search).has('view')) page.update({ view: 'listMonth' });
  const made = createCalendar(ctx, { locale, narrow, openEvent: (id) => openEvent({ id }) });
  calendar = made.calendar;
  // The rest of the start in tasks of their own: none of them long enough to hold up a click or a key.
  await yieldToMain();
  for (const d of Array.from(document.querySelectorAll('dialog'))) {
    d.addEventListener('click', (ev) => {
      if ((ev.target as HTMLElement).closest('[data-close]')) d.close();
    });
  }
  const account = setUpAccount(ctx);
  setUpManageViews(ctx, manageAtStart);
  setUpEditorActions(ctx);
  setUpFilters(ctx);
  followHistory(
    ctx,
    (slug) => openEvent({ slug }),
    () => renderFilters(page.get()),
  );
  $('detail').addEventListener('close', () => leaveEventAddress(ctx));
  setUpSubscribe(notice);
  // Timed events are drawn in the viewer's zone: the page says which (issue 29).
  $('zone-note').textContent = `Times are shown in your time zone, ${viewerZone()}.`;
  $('calendar').before(made.legend);
  // On a phone, the folded filters' button says how many apply.
  const filterCount = setUpFilterToggle($('filters'));
  page.subscribe((s) => filterCount(activeFilters(s)));
  if (eventPage) openEvent({ slug: eventPage }, eventRead);
  await yieldToMain();
  setUpEditorFields(ctx);
  renderFilters(page.get());
  filterCount(activeFilters(page.get()));
  loadOptions(ctx).catch((e) => {
    setCategories([]);
    notice(`Could not load the filters: ${(e as Error).message}`);
  });
  void account.finish(signInCallback);
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => void start());
else void start();

// For the browser tests and for curious developers: the calendar instance.
(window as unknown as { calendarPage: { calendar: () => Calendar } }).calendarPage = {
  calendar: () => calendar,
};
