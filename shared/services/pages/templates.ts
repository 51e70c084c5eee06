import { config } from '../../config';
import { sandboxEmbeds } from '../../domain/embeds';
import { storedHtmlText } from '../../domain/html';
import type { EventView } from '../events';
import type { LinkedView } from '../linked';
import { wallMs } from '../../domain/wall-time';

/**
 * The HTML of the public pages, as strings: what a search engine or a link preview reads before any
 * script runs. Every text of a record goes through `esc`; descriptions are HTML the API sanitized on
 * write (an allow-list), so they are inserted as they are, as the calendar page does, but for the
 * video and map embeds editors may keep (decisions §9), which are rendered sandboxed.
 */
export const SITE_NAME = 'Event calendar';

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const esc = (s: unknown): string => String(s ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c]!);

/** A link on this site by path, so the page works on whatever host serves it (the URLs are SITE_URL's). */
export const sitePath = (url: string): string =>
  url.startsWith(config.siteUrl) ? url.slice(config.siteUrl.length) || '/' : url;

/** The first ~160 characters of plain text, cut at a word: what previews and result snippets show. */
export function summary(html: string, max = 160): string {
  const text = storedHtmlText(html).replace(/\s+/g, ' ').trim();
  if (text.length <= max) return text;
  return `${text.slice(0, text.lastIndexOf(' ', max - 1) > 80 ? text.lastIndexOf(' ', max - 1) : max - 1)}…`;
}

export interface HeadInfo {
  title: string;
  description: string;
  /** Absolute (SITE_URL's): canonical link and og:url. */
  url: string;
  image?: string;
  /** JSON-LD `<script>` (already serialized). */
  jsonLd?: string;
}

/** `<title>`, description, canonical link, Open Graph and Twitter card tags. */
export function headTags(h: HeadInfo): string {
  const meta = (attr: 'name' | 'property', key: string, value: string) =>
    `<meta ${attr}="${key}" content="${esc(value)}" />`;
  return [
    `<title>${esc(h.title)} – ${SITE_NAME}</title>`,
    meta('name', 'description', h.description),
    `<link rel="canonical" href="${esc(h.url)}" />`,
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', SITE_NAME),
    meta('property', 'og:title', h.title),
    meta('property', 'og:description', h.description),
    meta('property', 'og:url', h.url),
    ...(h.image ? [meta('property', 'og:image', h.image)] : []),
    meta('name', 'twitter:card', h.image ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', h.title),
    meta('name', 'twitter:description', h.description),
    ...(h.image ? [meta('name', 'twitter:image', h.image)] : []),
    ...(h.jsonLd ? [h.jsonLd] : []),
  ].join('\n    ');
}

/**
 * The calendar page's own HTML (web/src/index.html, the same script and style) with this page's head
 * and its content above the calendar, so the app starts on it.
 */
export function intoShell(shell: string, head: string, content: string): string {
  // Function replacers only: a string replacement would expand `$&`, `$'`, `` $` `` and `$$` in a
  // record's text (issue 43).
  return (
    shell
      .replace(/<title>[^<]*<\/title>/, '')
      // The calendar's own description gives way to the record's.
      .replace(/<meta\s+name="description"[^>]*>/, '')
      .replace('</head>', () => `  ${head}\n  </head>`)
      .replace(/<main([^>]*)>/, (m) => `${m}\n${content}`)
  );
}

// ---- Dates: the event's own wall times, in its own zone ----------------------------------------

const wall = (s: string) => new Date(wallMs(s));
const dayFmt = new Intl.DateTimeFormat('en-GB', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});
const timeFmt = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });

/** "Wednesday 12 March 2031, 20:00 – 23:00 (America/New_York)", or the days of an all-day event. */
export function eventDates(e: EventView): string {
  const s = wall(e.start_date);
  const t = wall(e.end_date);
  const sameDay = e.start_date.slice(0, 10) === e.end_date.slice(0, 10);
  if (e.all_day)
    return sameDay ? `${dayFmt.format(s)} (all day)` : `${dayFmt.format(s)} – ${dayFmt.format(t)} (all day)`;
  const end = sameDay ? timeFmt.format(t) : `${dayFmt.format(t)}, ${timeFmt.format(t)}`;
  return `${dayFmt.format(s)}, ${timeFmt.format(s)} – ${end} (${e.timezone || e.timezone_abbr})`;
}

/** A site-local wall time (`Y-m-d H:i:s`) as words: "Wednesday 1 September 2027, 10:00". */
export const wallText = (w: string): string => `${dayFmt.format(wall(w))}, ${timeFmt.format(wall(w))}`;

const isoStart = (e: EventView) => `${(e.utc_start_date ?? e.start_date).replace(' ', 'T')}Z`;

/** The URL of a record's image (`false` when it has none). */
export const imageUrl = (image: unknown): string | undefined =>
  image && typeof image === 'object' && 'url' in image && typeof image.url === 'string'
    ? image.url
    : undefined;

// ---- Records --------------------------------------------------------------------------------------

export const venuesOf = (e: EventView): LinkedView[] =>
  [e.venue].flat().filter((v): v is LinkedView => !!v && typeof v === 'object' && 'venue' in v && !!v.venue);

export function addressOf(v: LinkedView): string {
  const region = v.stateprovince || v.state || v.province;
  return [v.address, [v.zip, v.city].filter(Boolean).join(' '), region, v.country]
    .filter((p) => p && String(p).trim())
    .join(', ');
}

const mapLink = (v: LinkedView) => {
  const lat = Number(v.geo_lat);
  const lng = Number(v.geo_lng);
  const href =
    v.geo_lat !== undefined && Number.isFinite(lat) && Number.isFinite(lng)
      ? `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=16/${lat}/${lng}`
      : `https://www.openstreetmap.org/search?query=${encodeURIComponent(`${v.venue}, ${addressOf(v)}`)}`;
  return `<a href="${esc(href)}" rel="noopener noreferrer" data-role="map">Map</a>`;
};

const row = (label: string, value: string) => `<dt>${esc(label)}</dt><dd>${value}</dd>`;
const isHttp = (u: unknown): u is string => typeof u === 'string' && /^https?:\/\//i.test(u);

/** The links of an event's categories (their archive paths) and tags. */
export interface TermLinks {
  categories: Array<{ name: string; href: string }>;
  tags: Array<{ name: string; href: string }>;
}

const termList = (terms: Array<{ name: string; href: string }>, role: string) =>
  `<span data-role="${role}">${terms.map((t) => `<a href="${esc(t.href)}">${esc(t.name)}</a>`).join(', ')}</span>`;

/** "Repeats every week on Tuesday at 7 PM", from the API's `recurrence_text` ("Every week …"). */
export const repeatsText = (text: string) => `Repeats ${text.charAt(0).toLowerCase()}${text.slice(1)}`;

/** The calendar filtered to one series, as a list of the occurrence's year (as the app's detail links). */
export const seriesListPath = (e: EventView) =>
  `/?${new URLSearchParams({ view: 'listYear', date: e.start_date.slice(0, 10), series: String(e.series_id) })}`;

/**
 * An occurrence's series: the rule in words, whether this date was changed on its own, the series'
 * next dates (`upcoming`, each linking to its page) and a link to the series' own list.
 */
function seriesRow(e: EventView, upcoming: EventView[]): string {
  const own = e.is_exception ? ' (this date was changed on its own)' : '';
  const dates = upcoming.length
    ? `<ul data-role="series-dates">${upcoming.map(eventItem).join('')}</ul>`
    : '<p data-role="series-dates">No other upcoming dates.</p>';
  return row(
    'Series',
    `<span data-role="recurrence">${esc(repeatsText(e.recurrence_text ?? ''))}</span>${own}` +
      `<br />Next dates:${dates}<a href="${esc(seriesListPath(e))}" data-role="series-link">All dates of this series</a>`,
  );
}

/**
 * An event's detail as a page: what the calendar's detail dialog shows, readable without a script.
 * `series`: for an occurrence, its series' other upcoming dates; `tickets`: its tickets' section
 * (ticket-templates.ts), registration forms included.
 */
export function eventArticle(e: EventView, terms: TermLinks, series?: EventView[], tickets = ''): string {
  const rows = [
    row('When', `<time datetime="${esc(isoStart(e))}" data-role="dates">${esc(eventDates(e))}</time>`),
  ];
  if (e.series_id != null) rows.push(seriesRow(e, series ?? []));
  if (e.cost) rows.push(row('Cost', `<span data-role="cost">${esc(e.cost)}</span>`));
  for (const v of venuesOf(e)) {
    const address = addressOf(v);
    rows.push(
      row(
        'Venue',
        `<a href="${esc(sitePath(v.url))}" data-role="venue">${esc(v.venue)}</a>` +
          (address ? `<br /><span data-role="address">${esc(address)}</span><br />${mapLink(v)}` : ''),
      ),
    );
  }
  const organizers = (e.organizer as LinkedView[]).filter((o) => o && o.organizer);
  if (organizers.length)
    rows.push(
      row(
        organizers.length > 1 ? 'Organizers' : 'Organizer',
        `<span data-role="organizers">${organizers
          .map((o) => `<a href="${esc(sitePath(o.url))}">${esc(o.organizer)}</a>`)
          .join(', ')}</span>`,
      ),
    );
  if (terms.categories.length) rows.push(row('Categories', termList(terms.categories, 'categories')));
  if (terms.tags.length) rows.push(row('Tags', termList(terms.tags, 'tags')));
  // The API falls back to the event's own page for `website`: only a website of its own is a link out.
  if (isHttp(e.website) && e.website !== e.url)
    rows.push(row('Website', `<a href="${esc(e.website)}" rel="noopener noreferrer">${esc(e.website)}</a>`));
  const src = imageUrl(e.image);
  const image = isHttp(src) ? `<img src="${esc(src)}" alt="" class="detail-image" width="640" />` : '';
  return `<article class="record detail" id="record" data-kind="event" data-id="${e.id}" data-slug="${esc(e.slug)}" data-date="${esc(e.start_date.slice(0, 10))}">
  <h2>${esc(e.title)}</h2>
  ${image}
  <dl>${rows.join('')}</dl>
  <div class="description" data-role="description">${sandboxEmbeds(e.description ?? '')}</div>${tickets}
</article>`;
}

/** An event as a line of a venue's or organizer's page. */
const eventItem = (e: EventView) =>
  `<li><a href="${esc(sitePath(e.url))}">${esc(e.title)}</a> <time datetime="${esc(isoStart(e))}">${esc(eventDates(e))}</time></li>`;

/** A venue's or organizer's page: its details and its upcoming events. */
export function linkedArticle(type: 'venue' | 'organizer', p: LinkedView, events: EventView[]): string {
  const name = type === 'venue' ? p.venue : p.organizer;
  const rows: string[] = [];
  if (type === 'venue') {
    const address = addressOf(p);
    if (address) rows.push(row('Address', `<span data-role="address">${esc(address)}</span> ${mapLink(p)}`));
  }
  if (p.phone) rows.push(row('Phone', esc(p.phone)));
  if (type === 'organizer' && p.email) rows.push(row('Email', esc(p.email)));
  if (isHttp(p.website))
    rows.push(row('Website', `<a href="${esc(p.website)}" rel="noopener noreferrer">${esc(p.website)}</a>`));
  const list = events.length
    ? `<ul data-role="upcoming">${events.map(eventItem).join('')}</ul>`
    : '<p data-role="upcoming">No upcoming events.</p>';
  return `<article class="record" id="record" data-kind="${type}" data-id="${p.id}">
  <h2>${esc(name)}</h2>
  ${rows.length ? `<dl>${rows.join('')}</dl>` : ''}
  <div class="description" data-role="description">${sandboxEmbeds(p.description ?? '')}</div>
  <h3>Upcoming events</h3>
  ${list}
</article>`;
}

/** A category's or tag's view: a heading above the calendar, which the app filters by it. */
export const archiveHeading = (noun: string, name: string, description: string) =>
  `<header class="record" id="record"><h2>${esc(noun)}: ${esc(name)}</h2>${
    description ? `<div class="description">${description}</div>` : ''
  }</header>`;

/** The 404 / 410 page: plain HTML with a way back, never the API's JSON envelope. */
export function errorPage(gone: boolean, what: string): string {
  const title = gone ? 'No longer available' : 'Not found';
  const text = gone
    ? `This ${esc(what)} has been removed from the calendar.`
    : `There is no ${esc(what)} at this address.`;
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="robots" content="noindex" />
    <title>${title} – ${SITE_NAME}</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="/app.css" />
  </head>
  <body>
    <main class="error-page">
      <h1>${title}</h1>
      <p>${text}</p>
      <p><a href="/">Back to the calendar</a></p>
    </main>
  </body>
</html>`;
}
