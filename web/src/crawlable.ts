/**
 * Every `<a>` of the calendar goes somewhere (issue 29; Lighthouse's "Links are not crawlable"): a
 * search engine follows an anchor's `href`, and an anchor without one, in a page that listens to clicks,
 * is a link that leads nowhere. FullCalendar draws three kinds of them:
 *
 * - events: they get their page's address (the `url` of their input, event-input.ts), which FullCalendar
 *   renders as the `href`; a click still opens the detail here (eventClick).
 * - the "+2 more" of a month day: an action (it opens the day's list), so a button by its role;
 *   FullCalendar already gives it the keyboard (Enter, Space) and focus.
 * - the columns' day names and the list's day labels: text, not links. They become presentational, and
 *   a column's full day name ("Monday", where it shows "Mon") names its header cell instead.
 */

/** FullCalendar's dayHeaderDidMount: a header cell (`th`, or a list day's `tr`). */
export function unlinkDayLabels(cell: HTMLElement): void {
  // A list day's own label has an id (the rows name their day by it): a fragment target, not a link.
  for (const a of Array.from(cell.querySelectorAll<HTMLElement>('a:not([href]):not([id])'))) {
    const name = a.getAttribute('aria-label');
    if (name && cell.matches('th') && a.getAttribute('aria-hidden') !== 'true')
      cell.setAttribute('aria-label', name);
    a.removeAttribute('aria-label');
    a.setAttribute('role', 'presentation');
  }
}

/** FullCalendar's moreLinkDidMount: "+2 more" opens a popover, so it is a button. */
export function moreLinkIsButton(link: HTMLElement): void {
  if (!link.hasAttribute('href')) link.setAttribute('role', 'button');
}

/** An event's page: the `href` of its element in the calendar (page-route.ts). */
export { eventPagePath } from './page-route';
