import { type CalEvent, cal } from './api';
import { showEventAddress } from './address';
import { calendarUrl } from './filters';
import { el, renderDetail } from './detail';
import { openEditor } from './editor';
import { eventShown, manageLinks } from './manage-views';
import { $, type PageContext } from './page-dom';
import { eventSlugOf } from './page-route';
import { isSignedIn } from './page-state';
import { showTickets } from './tickets-dialog';
import { changeStatus } from './trash-actions';

/** An event's read for its detail, by ID or slug. */
export const readEvent = (ref: { id: string } | { slug: string }) =>
  'id' in ref
    ? cal.getEvent({ path: { id: Number(ref.id) } })
    : cal.getEventBySlug({ path: { slug: ref.slug } });

/**
 * Opens an event's detail (detail.ts draws it; its address becomes the event's page) with what the
 * signed-in may do; `read` is its read when already begun (an event's page starts it early).
 */
export async function showDetail(
  ctx: PageContext,
  ref: { id: string } | { slug: string },
  read = readEvent(ref),
): Promise<void> {
  const dialog = $<HTMLDialogElement>('detail');
  let e: CalEvent;
  let etag: string | null;
  try {
    ({ data: e, etag } = await read);
  } catch (err) {
    ctx.notice(`Could not open the event: ${(err as Error).message}`);
    if ('slug' in ref && eventSlugOf(location.pathname))
      history.replaceState(null, '', calendarUrl(ctx.page.get(), ctx.page.get().home.path));
    return;
  }
  showEventAddress(ctx, e);
  $('detail-title').textContent = e.title;
  $('detail-body').replaceChildren(renderDetail(e));
  // Its tickets with the registration form, and for those who manage them the check-in and list.
  showTickets(e, $('detail-body'), manageLinks(e));
  const actions = $('detail-actions');
  actions.replaceChildren();
  if (isSignedIn(ctx.page.get())) {
    const button = (label: string, action: () => Promise<void>) => {
      const b = el('button', { type: 'button' }, label);
      b.addEventListener('click', () => void action());
      return b;
    };
    if (e.status === 'trash')
      actions.append(button('Restore as draft', () => changeStatus(ctx, e, 'restore', etag)));
    else {
      actions.append(
        button('Edit', async () => {
          dialog.close();
          openEditor(e, {}, etag);
        }),
      );
      actions.append(button('Move to trash', () => changeStatus(ctx, e, 'trash', etag)));
    }
  }
  actions.append(Object.assign(el('button', { type: 'button', 'data-close': '' }, 'Close')));
  if (!dialog.open) dialog.showModal();
  eventShown(e);
}
