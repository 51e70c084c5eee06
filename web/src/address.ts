import type { CalEvent } from './api';
import { calendarUrl, readState } from './filters';
import { $, type PageContext } from './page-dom';
import { eventPagePath, eventSlugOf } from './page-route';

/**
 * The page's address follows its state: the calendar's view and filters (filters.ts), or the open
 * event's page (page-route.ts reads addresses). Back and Forward set the state from the address.
 */

/**
 * Keeps the URL in step with the page: a new entry for a filter change or a month browsed (so Back
 * returns to it), a replaced one for the view the page opens on. Nothing while an event is open: the
 * address is the event's then.
 */
export function syncUrl(ctx: PageContext, push: boolean): void {
  const s = ctx.page.get();
  if (s.openSlug) return;
  const url = calendarUrl(s, s.home.path);
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
  else history.replaceState(null, '', calendarUrl(ctx.page.get(), s.home.path));
}

/** Whether the event's detail is the one open (its slug as an address decodes it, or as the API gives it). */
export function detailShows(ctx: PageContext, slug: string): boolean {
  const open = ctx.page.get().openSlug;
  if (!open || !$<HTMLDialogElement>('detail').open) return false;
  let decoded = open;
  try {
    decoded = decodeURIComponent(open);
  } catch {
    // a slug that does not decode is compared as given
  }
  return slug === open || slug === decoded;
}

/** Back and Forward: an event's address opens it again; the calendar's sets the view and filters. */
export function followHistory(
  ctx: PageContext,
  openEvent: (slug: string) => void,
  writeFilters: () => void,
): void {
  window.addEventListener('popstate', () => {
    const slug = eventSlugOf(location.pathname);
    if (slug) {
      // Back from a view over the open event (manage-views.ts) keeps its detail as it is.
      if (!detailShows(ctx, slug)) openEvent(slug);
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
