import type { Filters } from './filters';
import { feedOf, subscribeLinks } from './subscribe-links';

/**
 * "Subscribe" for the view's filters, as the reference plugin's menu offers it: Google Calendar, Apple
 * Calendar (`webcal://`), Outlook 365, Outlook.com, the feed's URL to copy, and the `.ics` to download.
 * Every option names the same feed, GET /events/ical with the view's filters, which a calendar program
 * fetches again on its own schedule. The page's `#subscribe` link (the download) becomes the menu's
 * last item, so without a script the download is still there.
 */
const SITE_NAME = 'Event calendar';

const item = (label: string, role: string, href?: string) => {
  const li = document.createElement('li');
  const a = document.createElement(href === undefined ? 'button' : 'a');
  a.textContent = label;
  a.dataset.role = role;
  if (a instanceof HTMLButtonElement) a.type = 'button';
  else if (href) {
    a.setAttribute('href', href);
    if (/^https:/.test(href)) Object.assign(a, { target: '_blank', rel: 'noopener noreferrer' });
  }
  li.append(a);
  return li;
};

/**
 * Turns the page's download link into the menu (once). `say` shows the outcome of a copy.
 */
export function setUpSubscribe(say: (text: string) => void): void {
  const download = document.getElementById('subscribe') as HTMLAnchorElement | null;
  if (!download || download.closest('.subscribe')) return;
  const menu = document.createElement('details');
  menu.className = 'subscribe';
  menu.id = 'subscribe-menu';
  const summary = document.createElement('summary');
  summary.textContent = 'Subscribe to this view';
  const list = document.createElement('ul');
  list.append(
    item('Google Calendar', 'google', ''),
    item('Apple Calendar', 'apple', ''),
    item('Outlook 365', 'outlook365', ''),
    item('Outlook.com', 'outlook-com', ''),
    item('Copy the URL', 'copy'),
  );
  download.replaceWith(menu);
  download.textContent = 'Download .ics';
  const last = document.createElement('li');
  last.append(download);
  list.append(last);
  menu.append(summary, list);
  list.querySelector<HTMLButtonElement>('[data-role="copy"]')!.addEventListener('click', () => {
    const feed = menu.dataset.feed ?? '';
    navigator.clipboard
      .writeText(feed)
      .then(() => say(`Copied the calendar's address: ${feed}`))
      .catch(() => say(`Copy this address into your calendar program: ${feed}`));
  });
  // Escape closes the menu where focus is, as a menu should.
  menu.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape' && menu.open) {
      menu.open = false;
      summary.focus();
    }
  });
}

/** Points every option at the feed of the view (`path`: the API path and query of the .ics). */
export function updateSubscribe(path: string, filtered: boolean): void {
  const download = document.getElementById('subscribe') as HTMLAnchorElement | null;
  if (download) {
    download.href = path;
    download.setAttribute('download', 'events.ics');
  }
  const menu = document.getElementById('subscribe-menu');
  if (!menu) return;
  const feed = new URL(path, location.origin).href;
  const links = subscribeLinks(feed, filtered ? `${SITE_NAME} (filtered)` : SITE_NAME);
  menu.dataset.feed = feed;
  const set = (role: string, href: string) =>
    menu.querySelector<HTMLAnchorElement>(`a[data-role="${role}"]`)?.setAttribute('href', href);
  set('google', links.google);
  set('apple', links.apple);
  set('outlook365', links.outlook365);
  set('outlook-com', links.outlookCom);
}

/** The menu follows the view's filters. */
export function renderSubscribe(f: Filters): void {
  const { path, filtered } = feedOf(f);
  updateSubscribe(path, filtered);
}
