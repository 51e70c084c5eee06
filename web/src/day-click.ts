/**
 * Click a day (month view, or the all-day row of the week and day views) or a time slot (week and day
 * views) to create an event there. Read from the calendar's own cells, delegated on its element, so
 * FullCalendar's interaction plugin (drag and drop, selection; a quarter of the page's script again) is
 * not bundled for one click. Keyboard users have the *New event* button, at the day shown.
 */
import { newEventAt, type NewEventAt } from './new-event';

export { newEventAt, type NewEventAt };

/** Things in a cell that have a click of their own. */
const OWN_CLICK = '.fc-event, .fc-more-link, .fc-daygrid-more-link, .fc-popover, a[href], button';

/** Where a click in the calendar asks for a new event, or null when it is not on an empty day or slot. */
function target(ev: MouseEvent): NewEventAt | null {
  const hit = ev.target as Element;
  if (hit.closest(OWN_CLICK)) return null;
  const day = hit.closest<HTMLElement>('.fc-daygrid-day[data-date]');
  if (day) return newEventAt(day.dataset.date!);
  if (!hit.closest('.fc-timegrid-body')) return null;
  // The day columns lie over the rows of time slots: the point names one of each.
  const under = document.elementsFromPoint(ev.clientX, ev.clientY);
  const column = under.find((e) => e.matches('.fc-timegrid-col[data-date]')) as HTMLElement | undefined;
  const slot = under.find((e) => e.matches('.fc-timegrid-slot-lane[data-time]')) as HTMLElement | undefined;
  return column && slot ? newEventAt(column.dataset.date!, slot.dataset.time!) : null;
}

export function setUpDayClick(
  calendar: HTMLElement,
  allowed: () => boolean,
  open: (at: NewEventAt) => void,
): void {
  // The pointer says so where a click creates (signed in or not may change at any time).
  calendar.addEventListener('pointerenter', () => calendar.classList.toggle('can-create', allowed()));
  calendar.addEventListener('click', (ev) => {
    if (!allowed()) return;
    const at = target(ev);
    if (at) open(at);
  });
}
