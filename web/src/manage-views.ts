import { managesAttendees } from './account-claims';
import { detailShows } from './address';
import { type CalEvent, cal } from './api';
import { attendeeListView } from './attendee-list';
import { checkInView, type ManagePart } from './check-in';
import { el } from './detail';
import type { PageContext } from './page-dom';
import { type ManageView, manageViewOf, manageViewPath } from './page-route';

/**
 * The views of an event's attendees for those who manage them (issue 42): the door's check-in
 * (check-in.ts) and the attendee list (attendee-list.ts), in one dialog over the event's detail, on
 * addresses of their own (`/event/<slug>/?manage=check-in|attendees`, page-route.ts): opening one is a
 * history entry (Back closes it), and a reload or a link opens the event's page with the view open.
 * The tickets section of the detail links to them (tickets-dialog.ts), for those who manage attendees.
 */

const TITLES: Record<ManageView, string> = { 'check-in': 'Check-in', attendees: 'Attendees' };

let ctx: PageContext | null = null;
let dialog: HTMLDialogElement | null = null;
/** The view the address named when the page started, opened once its event's detail is shown. */
let pending: { slug: string; view: ManageView } | null = null;

/** Whether the signed-in account may see an event's check-in and attendees (the API decides). */
export const managesEvent = (e: CalEvent): boolean =>
  !!ctx && managesAttendees(ctx.page.get().account, e.author);

/** The links to an event's views, for the tickets section of its detail; null for everyone else. */
export function manageLinks(e: CalEvent): HTMLElement | null {
  if (!managesEvent(e)) return null;
  const link = (view: ManageView) => {
    const a = el('a', { href: manageViewPath(e.slug, view), 'data-manage': view }, TITLES[view]);
    a.addEventListener('click', (ev) => {
      if (ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return; // a new tab loads it there
      ev.preventDefault();
      openManageView(e, view);
    });
    return a;
  };
  return el('p', { class: 'manage-links' }, 'For organizers: ', link('check-in'), ' · ', link('attendees'));
}

/** An event's detail is shown: the view its address asked for at the start opens over it. */
export function eventShown(e: CalEvent): void {
  if (!pending) return;
  const { view } = pending;
  pending = null;
  if (managesEvent(e)) openManageView(e, view);
  else
    ctx?.notice(
      `Sign in as an editor or as the event’s author to see its ${view === 'check-in' ? 'check-in' : 'attendees'}.`,
    );
}

let part: ManagePart | null = null;
/** Set while Back or Forward closes the dialog: the address is already the one to be at. */
let closingFromHistory = false;
let titleBefore = '';

export function openManageView(e: CalEvent, view: ManageView, push = true): void {
  if (!dialog) return;
  part?.stop();
  part = view === 'check-in' ? checkInView(e) : attendeeListView(e, ctx!.notice);
  $title().textContent = TITLES[view];
  $event().textContent = e.title;
  dialog.querySelector('#manage-body')!.replaceChildren(part.element);
  dialog.dataset.view = view;
  const path = manageViewPath(e.slug, view);
  if (push && `${location.pathname}${location.search}` !== path)
    history.pushState({ event: e.slug, manage: view }, '', path);
  if (!dialog.open) {
    titleBefore = document.title;
    dialog.showModal();
  }
  document.title = `${TITLES[view]}: ${e.title} – Event calendar`;
  part.focus();
}

const $title = () => dialog!.querySelector<HTMLElement>('#manage-title')!;
const $event = () => dialog!.querySelector<HTMLElement>('#manage-event')!;

/**
 * Makes the dialog and follows the address: `atStart` is the view the page's address named when it
 * loaded (read before the calendar rewrites the address).
 */
export function setUpManageViews(
  page: PageContext,
  atStart: { slug: string; view: ManageView } | null,
): void {
  ctx = page;
  pending = atStart;
  const close = el('button', { type: 'button', class: 'close', 'aria-label': 'Close' }, '×');
  dialog = el(
    'dialog',
    { id: 'manage', class: 'manage-view', 'aria-labelledby': 'manage-title' },
    el(
      'article',
      {},
      el(
        'header',
        { class: 'dialog-head' },
        el(
          'div',
          {},
          el('h2', { id: 'manage-title' }),
          el('p', { class: 'hint manage-event', id: 'manage-event' }),
        ),
        close,
      ),
      el('div', { id: 'manage-body' }),
    ),
  );
  document.body.append(dialog);
  const d = dialog;
  close.addEventListener('click', () => d.close());
  d.addEventListener('close', () => {
    part?.stop();
    part = null;
    d.querySelector('#manage-body')!.replaceChildren();
    document.title = titleBefore;
    if (closingFromHistory) {
      closingFromHistory = false;
      return;
    }
    // Opened here: its entry is the last one. Otherwise the address just drops the view.
    if ((history.state as { manage?: string } | null)?.manage) history.back();
    else history.replaceState(history.state, '', location.pathname);
  });
  // Back and Forward: an address without a view closes it; one with a view opens it (its event read).
  window.addEventListener('popstate', () => {
    const wanted = manageViewOf(location.pathname, location.search);
    if (!wanted) {
      if (d.open) {
        closingFromHistory = true;
        d.close();
      }
      return;
    }
    if (d.open && d.dataset.view === wanted.view) return;
    // The event's detail is opened again by the address's own follower (address.ts), unless it is the
    // one open: the view then opens once it is shown, over it.
    if (!detailShows(ctx!, wanted.slug)) {
      pending = wanted;
      return;
    }
    cal.getEventBySlug({ path: { slug: wanted.slug } }).then(
      ({ data }) => (managesEvent(data) ? openManageView(data, wanted.view, false) : undefined),
      () => undefined,
    );
  });
}
