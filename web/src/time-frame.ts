/**
 * The week and day views open at 08:00, not at midnight (issue 29). Their 24 hours are drawn in full
 * (the calendar's height is `auto`) inside a frame of the screen's height that scrolls: the frame is
 * FullCalendar's view harness, outside its grid, so it can take the keyboard focus a scrolling region
 * needs (FullCalendar's own scroller lies inside the grid's rows, where a focusable element may not).
 */
export const OPEN_AT = '08:00:00';

/** Frames the hours in the week and day views (app.css), and only there takes a place in the tab order. */
export function frameHours(calendarEl: HTMLElement, timeGrid: boolean): void {
  calendarEl.classList.toggle('time-grid', timeGrid);
  const harness = calendarEl.querySelector('.fc-view-harness');
  if (timeGrid) harness?.setAttribute('tabindex', '0');
  else harness?.removeAttribute('tabindex');
}

/** The top of the frame's visible hours: below the days' header when it sticks, else the frame's top. */
export function hoursTop(harness: Element): number {
  const header = harness.querySelector('.fc-scrollgrid-section-header > *');
  return header && getComputedStyle(header).position === 'sticky'
    ? header.getBoundingClientRect().bottom
    : harness.getBoundingClientRect().top;
}

/** Scrolls the frame so that 08:00 is the first hour shown. */
export function scrollToOpeningHour(calendarEl: HTMLElement): void {
  const harness = calendarEl.querySelector<HTMLElement>('.fc-view-harness');
  const slot = calendarEl.querySelector(`.fc-timegrid-slot-lane[data-time="${OPEN_AT}"]`);
  if (!harness || !slot) return;
  harness.scrollTop += slot.getBoundingClientRect().top - hoursTop(harness);
}
