import { type CalEvent, organizersOf, type Venue, venuesOf } from './api';
import { addLinksElement } from './add-links';
import { seriesDatesElement } from './series-dates';
import { whenRows } from './zone-switch';
import { statusLabel } from './format';

/** The sandbox of a description's embeds: shared/domain/embeds.ts EMBED_SANDBOX. */
const EMBED_SANDBOX = 'allow-scripts allow-same-origin';

/** An element with text content (never HTML) and attributes. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.append(...children);
  return node;
}

export { statusLabel };

const isHttp = (url: string | null | undefined): url is string => !!url && /^https?:\/\//i.test(url);

function address(v: Venue): string {
  const region = v.stateprovince || v.state || v.province;
  return [v.address, [v.zip, v.city].filter(Boolean).join(' '), region, v.country]
    .filter((p) => p && p.trim())
    .join(', ');
}

function row(label: string, ...value: Array<Node | string>): HTMLElement[] {
  return [el('dt', {}, label), el('dd', {}, ...value)];
}

const link = (href: string, text: string, external = true) =>
  el('a', external ? { href, rel: 'noopener noreferrer', target: '_blank' } : { href }, text);

/**
 * An occurrence's series: the rule in words (the API's `recurrence_text`), whether this date was changed
 * on its own, and a link to the calendar showing only the series, as a list of the occurrence's year.
 */
function seriesParts(e: CalEvent): Array<Node | string> {
  const text = e.recurrence_text ?? '';
  const parts: Array<Node | string> = [
    el('span', { 'data-role': 'recurrence' }, `Repeats ${text.charAt(0).toLowerCase()}${text.slice(1)}`),
  ];
  if (e.is_exception) parts.push(' (this date was changed on its own)');
  const q = new URLSearchParams({
    view: 'listYear',
    date: e.start_date.slice(0, 10),
    series: String(e.series_id),
  });
  parts.push(seriesDatesElement(e));
  parts.push(el('a', { href: `/?${q}`, 'data-role': 'series-link' }, 'All dates of this series'));
  return parts;
}

/** The body of the detail dialog for one event, as GET /events/{id} returned it. */
export function renderDetail(e: CalEvent): HTMLElement {
  const body = el('div', { class: 'detail', 'data-event-id': String(e.id) });
  if (e.status !== 'publish')
    body.append(el('p', { class: `badge status-${e.status}`, 'data-role': 'status' }, statusLabel(e.status)));
  if (e.image && isHttp(e.image.url))
    body.append(el('img', { src: e.image.url, alt: '', class: 'detail-image', loading: 'lazy' }));

  const list = el('dl');
  // When, in the viewer's zone or (switched) the event's own, with the other beside it.
  list.append(...whenRows(e));
  if (e.series_id != null) list.append(...row('Series', ...seriesParts(e)));
  if (e.cost) list.append(...row('Cost', el('span', { 'data-role': 'cost' }, e.cost)));

  for (const v of venuesOf(e).filter((x) => x && x.id)) {
    const where = el('span', { 'data-role': 'venue' }, v.venue ?? '');
    const addr = address(v);
    const parts: Array<Node | string> = [where];
    if (addr) {
      parts.push(el('br'), el('span', { 'data-role': 'address' }, addr), el('br'));
      parts.push(
        link(
          `https://www.openstreetmap.org/search?query=${encodeURIComponent(`${v.venue}, ${addr}`)}`,
          'Map',
        ),
      );
    }
    list.append(...row('Venue', ...parts));
  }
  const organizers = organizersOf(e);
  if (organizers.length)
    list.append(
      ...row(
        organizers.length > 1 ? 'Organizers' : 'Organizer',
        el('span', { 'data-role': 'organizers' }, organizers.map((o) => o.organizer).join(', ')),
      ),
    );
  if (e.categories?.length)
    list.append(
      ...row(
        'Categories',
        el('span', { 'data-role': 'categories' }, e.categories.map((c) => c.name).join(', ')),
      ),
    );
  if (e.tags?.length)
    list.append(...row('Tags', el('span', { 'data-role': 'tags' }, e.tags.map((t) => t.name).join(', '))));
  // `website` falls back to the event's own page (its `url`): only a website of its own is one.
  if (isHttp(e.website) && e.website !== e.url) list.append(...row('Website', link(e.website, e.website)));
  body.append(list);

  // The API sanitizes descriptions on write (an allow-list of safe HTML), so it is shown as HTML; the
  // video and map embeds editors may keep are sandboxed, as the server-rendered page does
  // (shared/domain/embeds.ts, decisions §9).
  const description = el('div', { class: 'description', 'data-role': 'description' });
  description.innerHTML = (e.description ?? '').replace(
    /<iframe\b/gi,
    () => `<iframe sandbox="${EMBED_SANDBOX}"`,
  );
  body.append(description);

  body.append(addLinksElement(e));
  return body;
}
