import type { CalEvent } from './api';
import { eventPagePath } from './crawlable';
import { readState, stateQuery } from './filters';
import { $ } from './page-dom';
import { calendarPath, eventSlugOf } from './page-route';
import type { Page, PageContext } from './page-state';

/**
 * The page's address follows its state: the calendar's view and filters (filters.ts), or the open
 * event's page (page-route.ts reads addresses). Back and Forward set the state from the address.
 */

/** The address of the calendar's view for a state. */
export function calendarUrl(s: Page): string {
  const { path, omit } = calendarPath(s, s.home.path);
  return `${path}${stateQuery(omit ? { ...s, [omit]: '' } : s)}`;
}

/**
 * Keeps the URL in step with the page: a new entry for a filter change or a month browsed (so Back
 * returns to it), a replaced one for the view the page opens on. Nothing while an event is open: the
 * address is the event's then.
 */
export function syncUrl(ctx: PageContext, push: boolean): void {
  const s = ctx.page.get();
  if (s.openSlug) return;
  const url = calendarUrl(s);
  if (url === `${location.pathname}${location.search}`) return;
  if (push) history.pushState(null, '', url);
  else history.replaceState(null, '', url);
}

/** An event's detail opened: the address becomes its page (a new entry, so Back closes it). */
export function showEventAddress(ctx: PageContext, e: CalEvent): void {
  document.title = `${e.title} – Event calendar`;
  ctx.page.update({ openSlug: e.slug });
  const path = eventPagePath(e.slug);
  if (location.pathname !== path) history.pushState({ event: e.slug }, '', path);
}

/** The detail closed (Close, Escape, Edit, trash): back to the calendar's address. */
export function leaveEventAddress(ctx: PageContext): void {
  const s = ctx.page.get();
  if (!s.openSlug) return;
  ctx.page.update({ openSlug: null });
  document.title = s.home.title;
  // The event page's own content belongs to its address.
  document.querySelector('#record[data-kind="event"]')?.remove();
  // Opened from the calendar: its entry is the one before. Opened at its address: there is none.
  if ((history.state as { event?: string } | null)?.event) history.back();
  else history.replaceState(null, '', calendarUrl(ctx.page.get()));
}

/** Back and Forward: an event's address opens it again; the calendar's sets the view and filters. */
export function followHistory(
  ctx: PageContext,
  openEvent: (slug: string) => void,
  writeFilters: () => void,
): void {
  window.addEventListener('popstate', () => {
    const slug = eventSlugOf();
    if (slug) {
      openEvent(slug);
      return;
    }
    const { openSlug, home } = ctx.page.get();
    if (openSlug) {
      ctx.page.update({ openSlug: null });
      document.title = home.title;
      $<HTMLDialogElement>('detail').close();
    }
    ctx.page.update(readState(location.search, home.path));
    writeFilters();
    const { view, date } = ctx.page.get();
    ctx.calendar().changeView(view, date || undefined);
    ctx.calendar().refetchEvents();
  });
}
