import { pagePath } from '../../shared/domain/page-paths';
import { wallAt } from '../../shared/domain/wall-time';
import { type CalEvent, cal } from './api';
import { describeDates } from './format';

/** How many of a series' other dates the detail lists (as the event's server-rendered page does). */
const SHOWN = 5;

/** The present as the API's date filters take it: a wall time, compared with each event's own. */
const nowWall = () => wallAt(Date.now());

/**
 * An occurrence's series' other upcoming dates (not ended, soonest first), each linking to its page:
 * an element filled once GET /events?series= answers; it says so when that fails, the rest of the
 * detail being shown meanwhile.
 */
export function seriesDatesElement(e: CalEvent): HTMLElement {
  const box = document.createElement('div');
  box.dataset.role = 'series-dates';
  box.setAttribute('aria-busy', 'true');
  box.textContent = 'Loading the next dates…';
  cal
    .listEvents({ query: { series: Number(e.series_id), ends_after: nowWall(), per_page: SHOWN + 1 } })
    .then(({ data }) => {
      const others = data.events.filter((o) => o.id !== e.id).slice(0, SHOWN);
      if (!others.length) return void (box.textContent = 'No other upcoming dates.');
      const list = document.createElement('ul');
      for (const o of others) {
        const a = document.createElement('a');
        a.href = pagePath('event', o.slug);
        // An occurrence retitled on its own says so; the others are the series' own title.
        a.textContent = `${describeDates(o).main}${o.title !== e.title ? ` – ${o.title}` : ''}`;
        const item = document.createElement('li');
        item.append(a);
        list.append(item);
      }
      box.replaceChildren('Next dates:', list);
    })
    .catch((err: Error) => (box.textContent = `Could not load the next dates: ${err.message}`))
    .finally(() => box.removeAttribute('aria-busy'));
  return box;
}
