import type { Calendar } from '@fullcalendar/core';
import { NO_CATEGORY } from './colours';

/** The legend of the colours the view shows, by category name, "Other" (no category) last. */
export function renderLegend(legend: HTMLElement, calendar: Calendar): void {
  const { activeStart, activeEnd } = calendar.view;
  const shown = new Map<string, string>();
  for (const ev of calendar.getEvents()) {
    if (!ev.start || ev.start >= activeEnd || (ev.end ?? ev.start) < activeStart) continue;
    const p = ev.extendedProps as { colour?: string; category?: string };
    shown.set(p.category || 'Other', p.colour ?? NO_CATEGORY);
  }
  const entries = [...shown].sort(([a], [b]) =>
    a === 'Other' ? 1 : b === 'Other' ? -1 : a.localeCompare(b),
  );
  legend.hidden = entries.length === 0;
  legend.querySelector('ul')!.replaceChildren(
    ...entries.map(([name, colour]) => {
      const li = document.createElement('li');
      const swatch = document.createElement('span');
      swatch.className = 'swatch';
      swatch.style.background = colour;
      swatch.setAttribute('aria-hidden', 'true');
      li.append(swatch, name);
      return li;
    }),
  );
}

/** The legend's element, placed before the calendar. */
export function legendElement(): HTMLElement {
  const legend = document.createElement('div');
  legend.id = 'legend';
  legend.className = 'legend';
  legend.hidden = true;
  const heading = document.createElement('span');
  heading.id = 'legend-title';
  heading.textContent = 'Colours:';
  const list = document.createElement('ul');
  list.setAttribute('aria-labelledby', 'legend-title');
  legend.append(heading, list);
  return legend;
}
