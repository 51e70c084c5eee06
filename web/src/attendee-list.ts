import { type Attendee, type CalEvent, cal, listAll, type Ticket } from './api';
import { attendeesCsvPath, attendeeStatus, csvFileName, filterAttendees, shownText } from './attendee-filter';
import type { ManagePart } from './check-in';
import { el } from './detail';
import { eventTickets, refusalOf } from './tickets-dialog';

/**
 * An event's attendees for those who manage them (issue 42): the whole list read once (GET /attendees
 * with post_id, every page), a search box filtering it in the page by name or e-mail
 * (attendee-filter.ts), and *Export CSV*: GET /attendees?post_id=&format=csv fetched with the token and
 * saved as a file (a plain link would send no token).
 */

export function attendeeListView(e: CalEvent, notice: (text: string) => void): ManagePart {
  const search = el('input', {
    id: 'al-search',
    type: 'search',
    name: 'search',
    autocomplete: 'off',
    'aria-controls': 'al-table',
  });
  const exportButton = el('button', { type: 'button', id: 'al-export' }, 'Export CSV');
  const count = el('p', { id: 'al-count', class: 'hint', role: 'status' }, 'Loading attendees…');
  const rows = el('tbody');
  const table = el(
    'table',
    { id: 'al-table', class: 'attendees' },
    el('caption', { class: 'sr-only' }, `Attendees of ${e.title}`),
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        ...['Name', 'E-mail', 'Ticket', 'Registration', 'Checked in', 'Number'].map((h) =>
          el('th', { scope: 'col' }, h),
        ),
      ),
    ),
    rows,
  );
  // A phone scrolls the table sideways: the region is focusable, so the keyboard scrolls it too.
  const scroller = el(
    'div',
    { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': 'Attendees' },
    table,
  );
  const searchForm = el(
    'form',
    { role: 'search', class: 'attendee-search', 'aria-label': 'Attendees' },
    el('div', { class: 'field' }, el('label', { for: 'al-search' }, 'Search by name or e-mail'), search),
    el('div', { class: 'dialog-actions' }, exportButton),
  );
  searchForm.addEventListener('submit', (ev) => ev.preventDefault());
  const element = el(
    'div',
    { class: 'attendee-list', 'data-view': 'attendees' },
    searchForm,
    count,
    scroller,
  );

  let all: Attendee[] = [];
  let titles = new Map<number, string>();
  const draw = () => {
    const shown = filterAttendees(all, search.value);
    count.textContent = shownText(shown.length, all.length, search.value);
    rows.replaceChildren(
      ...shown.map((a) =>
        el(
          'tr',
          { 'data-attendee-id': String(a.id) },
          el('td', {}, a.title),
          el('td', {}, a.email ?? ''),
          el('td', {}, titles.get(a.ticket_id) ?? `Ticket ${a.ticket_id}`),
          el('td', {}, attendeeStatus(a)),
          el('td', {}, a.checked_in ? 'Yes' : 'No'),
          el('td', {}, String(a.id)),
        ),
      ),
    );
  };
  search.addEventListener('input', draw);

  const load = async () => {
    const [list, tickets] = await Promise.all([
      listAll('listAttendees', { query: { post_id: e.id, per_page: 50 } }),
      eventTickets(e.id).catch(() => [] as Ticket[]),
    ]);
    all = list.sort((a, b) => a.title.localeCompare(b.title) || a.id - b.id);
    titles = new Map(tickets.map((t) => [t.id, t.title]));
    draw();
  };
  load().catch((err: unknown) => {
    count.textContent = `Could not load the attendees: ${refusalOf(err).message}`;
  });

  exportButton.addEventListener('click', () => {
    exportButton.disabled = true;
    void exportCsv(e)
      .then((name) => notice(`Saved ${name}.`))
      .catch((err: Error) => {
        count.textContent = `Could not export the attendees: ${err.message}`;
      })
      .finally(() => {
        exportButton.disabled = false;
      });
  });

  return { element, focus: () => search.focus(), stop: () => undefined };
}

/** Fetches the event's CSV with the tab's token and hands it to the browser as a download. */
async function exportCsv(e: CalEvent): Promise<string> {
  const url = new URL(attendeesCsvPath(e.id), location.origin).href;
  const reply = await cal.send('GET', url, { headers: { accept: 'text/csv' } });
  const type = reply.headers.get('content-type') ?? '';
  if (reply.status >= 400 || !type.includes('text/csv')) {
    const body = reply.data as { message?: string } | string | undefined;
    const message = typeof body === 'object' && body?.message ? body.message : `HTTP ${reply.status}`;
    throw new Error(message);
  }
  const name = csvFileName(e.slug);
  const href = URL.createObjectURL(new Blob([String(reply.data ?? '')], { type: 'text/csv;charset=utf-8' }));
  const link = el('a', { href, download: name, hidden: '' });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
  return name;
}
