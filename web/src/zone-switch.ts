import type { CalEvent } from './api';
import { describeDates } from './format';

/**
 * The detail's dates with a switch between the viewer's time zone and the event's own (issue 29): the
 * calendar draws every timed event in the viewer's zone; a reader planning to travel wants the event's.
 * The choice is kept for the next details (localStorage).
 */
const KEY = 'cal-zone';
type Zone = 'viewer' | 'event';
const chosen = (): Zone => (localStorage.getItem(KEY) === 'event' ? 'event' : 'viewer');

function node<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string>,
  text = '',
): HTMLElementTagNameMap[K] {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  n.textContent = text;
  return n;
}

/** The rows "When" and, when the event's zone shows other times, the other zone's with the switch. */
export function whenRows(e: CalEvent): HTMLElement[] {
  const dates = describeDates(e);
  const main = node('span', { 'data-role': 'dates' }, dates.main);
  const rows: HTMLElement[] = [node('dt', {}, 'When'), node('dd', {})];
  rows[1]!.append(main);
  const own = dates.own;
  if (!own) return rows;
  const otherLabel = node('dt', {});
  const other = node('span', { 'data-role': 'own-dates' });
  const button = node('button', { type: 'button', 'data-role': 'zone-switch', class: 'zone-switch' });
  const show = (zone: Zone) => {
    main.textContent = zone === 'event' ? own : dates.main;
    other.textContent = zone === 'event' ? dates.main : own;
    main.dataset.zone = zone;
    otherLabel.textContent = zone === 'event' ? 'In your time zone' : 'Local to the event';
    button.textContent =
      zone === 'event' ? 'Show in your time zone' : `Show in the event's time zone (${e.timezone})`;
  };
  button.addEventListener('click', () => {
    const next: Zone = main.dataset.zone === 'event' ? 'viewer' : 'event';
    localStorage.setItem(KEY, next);
    show(next);
  });
  show(chosen());
  rows[1]!.append(' ', button);
  const dd = node('dd', {});
  dd.append(other);
  rows.push(otherLabel, dd);
  return rows;
}
