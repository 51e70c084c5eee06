import type { ChildNode, Element } from 'domhandler';
import { findAll, findOne, textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import type { Event as SchemaEvent, WithContext } from 'schema-dts';
import { beforeAll, describe, expect, it } from 'vitest';
import { finishJournal } from '../../shared/services/series';
import { aCategory, aTag, anEvent, anOrganizer, aVenue, creator, type Rec } from '../support/bodies';
import { useStack } from '../support/use-stack';

/**
 * The public pages at the addresses the API's `url` fields name (issue 29): server-rendered HTML with
 * head tags and schema.org JSON-LD for previews and search, then the calendar app. Read as a visitor
 * would, by plain GETs on the stack's origin.
 */
const { api, tokens } = await useStack({ tokens: { editor: 'editor' } });

let music: Rec;
let jazz: Rec;
let tag: Rec;
let venue: Rec;
let organizer: Rec;
let event: Rec;
let bare: Rec;
let tricky: Rec;
let draft: Rec;
let trashed: Rec;
/**
 * A weekly series' occurrences, soonest first; the second one cancelled (trashed). In 2028: a series is
 * written up to 24 months ahead (SERIES_HORIZON_MONTHS).
 */
let yoga: Rec[];

beforeAll(async () => {
  const created = creator(api, tokens.editor);
  music = await created('/categories', aCategory({ name: 'Music' }));
  jazz = await created('/categories', aCategory({ name: 'Jazz', parent: music.id }));
  tag = await created('/tags', aTag({ name: 'Accessible' }));
  venue = await created(
    '/venues',
    aVenue({
      venue: 'Blue Hall',
      address: '1 Harbour Street',
      city: 'Bristol',
      zip: 'BS1 5TX',
      country: 'United Kingdom',
      geo_lat: 51.45,
      geo_lng: -2.6,
    }),
  );
  organizer = await created('/organizers', anOrganizer({ organizer: 'Night Owls Collective' }));
  event = await created(
    '/events',
    anEvent({
      title: 'Jazz Night & Friends',
      status: 'publish',
      start_date: '2031-03-12 20:00:00',
      end_date: '2031-03-12 23:00:00',
      timezone: 'America/New_York',
      description: '<p>Standards and <strong>late sets</strong>.</p>',
      cost: '12',
      image: 'https://images.example.org/jazz.jpg',
      categories: [jazz.id],
      tags: [tag.id],
      venue: [venue.id],
      organizer: [organizer.id],
    }),
  );
  bare = await created(
    '/events',
    anEvent({
      title: 'Bare',
      status: 'publish',
      all_day: true,
      start_date: '2031-04-02',
      end_date: '2031-04-02',
    }),
  );
  tricky = await created(
    '/events',
    anEvent({ title: 'Tricky', status: 'publish', description: '<p>a &lt;/script&gt;&lt;b&gt; "b"</p>' }),
  );
  draft = await created('/events', anEvent({ title: 'Secret', status: 'draft' }));
  trashed = await created('/events', anEvent({ title: 'Gone', status: 'publish' }));
  expect((await api.del(`/events/${trashed.id}`, { token: tokens.editor })).status).toBe(200);
  const first = await created(
    '/events',
    anEvent({
      title: 'Yoga',
      status: 'publish',
      start_date: '2028-05-02 19:00:00',
      end_date: '2028-05-02 20:00:00',
      timezone: 'Europe/Berlin',
      recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=8'],
    }),
  );
  // What the create left in the series' journal (a loaded machine), finished as the extend job would.
  await finishJournal(first.series_id, Number.POSITIVE_INFINITY);
  yoga = (await api.get(`/events?series=${first.id}&start_date=2028-01-01&end_date=2028-12-31&per_page=20`))
    .body.events;
  expect(yoga).toHaveLength(8);
  expect((await api.del(`/events/${yoga[1]!.id}`, { token: tokens.editor })).status).toBe(200);
});

/** A GET of a page by the path of a `url` the API returned (SITE_URL is another host in the tests). */
async function page(url: string) {
  const path = url.startsWith('http') ? new URL(url).pathname : url;
  const res = await fetch(`${api.origin}${path}`);
  const html = await res.text();
  const doc = parseDocument(html);
  const all = (test: (e: Element) => boolean) => findAll(test, doc.children as ChildNode[]);
  const one = (test: (e: Element) => boolean) => findOne(test, doc.children as ChildNode[]) ?? undefined;
  const meta = (key: string) =>
    one((e) => e.name === 'meta' && (e.attribs.name === key || e.attribs.property === key))?.attribs.content;
  const jsonLd = all((e) => e.name === 'script' && e.attribs.type === 'application/ld+json').map(
    (e) => JSON.parse(textContent(e)) as Rec,
  );
  const role = (r: string) => one((e) => e.attribs['data-role'] === r);
  return { res, html, all, one, meta, jsonLd, role, text: (e?: Element) => (e ? textContent(e).trim() : '') };
}

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;

describe('an event page', () => {
  it('is HTML with the title, description, canonical link, Open Graph and Twitter card tags', async () => {
    const p = await page(event.url);

    expect(p.res.status).toBe(200);
    expect(p.res.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect(p.res.headers.get('cache-control')).toBe('public, max-age=60');
    expect(p.text(p.one((e) => e.name === 'title'))).toBe('Jazz Night & Friends – Event calendar');
    expect(p.all((e) => e.name === 'title')).toHaveLength(1);
    expect(p.meta('description')).toBe('Standards and late sets.');
    expect(p.one((e) => e.name === 'link' && e.attribs.rel === 'canonical')?.attribs.href).toBe(event.url);
    expect(p.meta('og:title')).toBe('Jazz Night & Friends');
    expect(p.meta('og:url')).toBe(event.url);
    expect(p.meta('og:description')).toBe('Standards and late sets.');
    expect(p.meta('og:image')).toBe('https://images.example.org/jazz.jpg');
    expect(p.meta('twitter:card')).toBe('summary_large_image');
    expect(p.meta('twitter:title')).toBe('Jazz Night & Friends');
  });

  it("carries schema.org Event JSON-LD with Google's required and recommended properties", async () => {
    const p = await page(event.url);

    expect(p.jsonLd).toHaveLength(1);
    const ld = p.jsonLd[0] as WithContext<SchemaEvent> & Rec;
    expect(ld['@context']).toBe('https://schema.org');
    expect(ld['@type']).toBe('Event');
    // Required by Google: name, startDate, location.
    expect(ld.name).toBe('Jazz Night & Friends');
    expect(ld.startDate).toBe('2031-03-12T20:00:00-04:00');
    expect(ld.startDate).toMatch(ISO_WITH_OFFSET);
    expect(ld.location).toEqual({
      '@type': 'Place',
      name: 'Blue Hall',
      url: venue.url,
      address: {
        '@type': 'PostalAddress',
        streetAddress: '1 Harbour Street',
        addressLocality: 'Bristol',
        postalCode: 'BS1 5TX',
        addressCountry: 'United Kingdom',
      },
      geo: { '@type': 'GeoCoordinates', latitude: 51.45, longitude: -2.6 },
    });
    // Recommended, present because the event has the data.
    expect(ld.endDate).toBe('2031-03-12T23:00:00-04:00');
    expect(ld.eventStatus).toBe('https://schema.org/EventScheduled');
    expect(ld.eventAttendanceMode).toBe('https://schema.org/OfflineEventAttendanceMode');
    expect(ld.description).toBe('Standards and late sets.');
    expect(ld.image).toBe('https://images.example.org/jazz.jpg');
    expect(ld.url).toBe(event.url);
    expect(ld.organizer).toEqual({
      '@type': 'Organization',
      name: 'Night Owls Collective',
      url: organizer.url,
    });
    expect(ld.offers).toMatchObject({
      '@type': 'Offer',
      price: '12',
      priceCurrency: 'USD',
      url: event.url,
      availability: 'https://schema.org/InStock',
    });
    expect((ld.offers as Rec).validFrom).toMatch(ISO_WITH_OFFSET);
  });

  it('leaves out what an event does not have, and gives all-day events their days', async () => {
    const p = await page(bare.url);

    const ld = p.jsonLd[0]!;
    expect(ld.startDate).toBe('2031-04-02');
    expect(ld).not.toHaveProperty('location');
    expect(ld).not.toHaveProperty('offers');
    expect(ld).not.toHaveProperty('organizer');
    expect(ld).not.toHaveProperty('image');
    expect(p.meta('twitter:card')).toBe('summary');
    expect(p.meta('og:image')).toBeUndefined();
    // The description falls back to something to read.
    expect(p.meta('description')).toBe('Bare: 2031-04-02');
  });

  it('escapes what a record says: no text can end the JSON-LD script or add markup', async () => {
    const p = await page(tricky.url);

    expect(p.jsonLd[0]!.description).toBe('a </script><b> "b"');
    expect(p.meta('description')).toBe('a </script><b> "b"');
    expect(p.html).not.toContain('</script><b>');
    expect(p.all((e) => e.name === 'b')).toEqual([]);
  });

  it("shows the detail: dates in the event's zone, venue with a map link, organizers, description, terms linking to their views", async () => {
    const p = await page(event.url);

    expect(p.text(p.role('dates'))).toBe('Wednesday, 12 March 2031, 20:00 – 23:00 (America/New_York)');
    expect(p.role('dates')?.attribs.datetime).toBe('2031-03-13T00:00:00Z');
    expect(p.text(p.role('cost'))).toBe(event.cost);
    expect(p.role('venue')?.attribs.href).toBe(new URL(venue.url).pathname);
    expect(p.text(p.role('address'))).toBe('1 Harbour Street, BS1 5TX Bristol, United Kingdom');
    expect(p.role('map')?.attribs.href).toContain('openstreetmap.org/?mlat=51.45&mlon=-2.6');
    expect(p.text(p.role('organizers'))).toBe('Night Owls Collective');
    const links = (r: string) =>
      findAll((e) => e.name === 'a', p.role(r)!.children).map((a) => [textContent(a), a.attribs.href]);
    expect(links('categories')).toEqual([['Jazz', '/events/category/music/jazz/']]);
    expect(links('tags')).toEqual([['Accessible', '/tag/accessible/']]);
    expect(p.html).toContain(
      '<div class="description" data-role="description"><p>Standards and <strong>late sets</strong>.</p></div>',
    );
    // The website the API falls back to is the page itself: not shown as a website of its own.
    expect(event.website).toBe(event.url);
    expect(p.html).not.toContain('<dt>Website</dt>');
  });

  it('starts the calendar app on the page, with the same script and style as the calendar', async () => {
    const p = await page(event.url);

    expect(p.one((e) => e.name === 'script' && e.attribs.src === '/app.js')).toBeTruthy();
    expect(p.one((e) => e.name === 'link' && e.attribs.href === '/app.css')).toBeTruthy();
    expect(p.one((e) => e.attribs.id === 'calendar')).toBeTruthy();
    const article = p.one((e) => e.attribs.id === 'record')!;
    expect(article.attribs).toMatchObject({
      'data-kind': 'event',
      'data-slug': event.slug,
      'data-date': '2031-03-12',
    });
  });
});

describe("an occurrence's page", () => {
  it("shows how its series repeats, the series' next dates linking to their pages, and the series' list", async () => {
    const third = yoga[2]!;
    const p = await page(third.url);

    expect(p.res.status).toBe(200);
    expect(p.text(p.role('recurrence'))).toBe(
      `Repeats ${third.recurrence_text.charAt(0).toLowerCase()}${third.recurrence_text.slice(1)}`,
    );
    expect(p.text(p.role('recurrence'))).toMatch(/^Repeats every week on Tuesday/);
    // Its other dates that have not ended, soonest first, five of them: not itself, not the cancelled one.
    const dates = findAll((e) => e.name === 'a', p.role('series-dates')!.children);
    expect(dates.map((a) => a.attribs.href)).toEqual(
      [yoga[0], yoga[3], yoga[4], yoga[5], yoga[6]].map((o) => new URL(o!.url).pathname),
    );
    expect(dates.map((a) => textContent(a))).toEqual(Array(5).fill('Yoga'));
    expect(p.text(findAll((e) => e.name === 'time', p.role('series-dates')!.children)[1])).toBe(
      'Tuesday, 23 May 2028, 19:00 – 20:00 (Europe/Berlin)',
    );
    expect(p.role('series-link')?.attribs.href).toBe(
      `/?view=listYear&date=2028-05-16&series=${third.series_id}`,
    );
    for (const a of dates.slice(0, 2)) expect((await page(a.attribs.href!)).res.status).toBe(200);
  });

  it('says nothing of a series on a single event', async () => {
    const p = await page(event.url);

    expect(p.role('recurrence')).toBeUndefined();
    expect(p.role('series-dates')).toBeUndefined();
  });
});

describe('venue and organizer pages', () => {
  it('show the venue as a schema.org Place with its upcoming events', async () => {
    const p = await page(venue.url);

    expect(p.res.status).toBe(200);
    expect(p.text(p.one((e) => e.name === 'title'))).toBe('Blue Hall – Event calendar');
    expect(p.one((e) => e.name === 'link' && e.attribs.rel === 'canonical')?.attribs.href).toBe(venue.url);
    const ld = p.jsonLd[0]!;
    expect(ld).toMatchObject({ '@context': 'https://schema.org', '@type': 'Place', name: 'Blue Hall' });
    expect(ld.event.map((e: Rec) => [e['@type'], e.name, e.url])).toEqual([
      ['Event', event.title, event.url],
    ]);
    const upcoming = findAll((e) => e.name === 'a', p.role('upcoming')!.children);
    expect(upcoming.map((a) => a.attribs.href)).toEqual([new URL(event.url).pathname]);
  });

  it('show the organizer as a schema.org Organization with its upcoming events', async () => {
    const p = await page(organizer.url);

    expect(p.res.status).toBe(200);
    const ld = p.jsonLd[0]!;
    expect(ld).toMatchObject({ '@type': 'Organization', name: 'Night Owls Collective' });
    expect(ld.event).toHaveLength(1);
    expect(p.meta('og:url')).toBe(organizer.url);
  });
});

describe('category and tag views', () => {
  it('serve the calendar page named for the category, its ancestors in the path', async () => {
    const listed = (await api.get(`/categories/${jazz.id}`)).body;
    expect(new URL(listed.url).pathname).toBe('/events/category/music/jazz/');

    const p = await page(listed.url);
    expect(p.res.status).toBe(200);
    expect(p.text(p.one((e) => e.name === 'title'))).toBe('Category: Jazz – Event calendar');
    expect(p.one((e) => e.name === 'link' && e.attribs.rel === 'canonical')?.attribs.href).toBe(listed.url);
    expect(p.one((e) => e.attribs.id === 'calendar')).toBeTruthy();
  });

  it('serve the calendar page for a tag', async () => {
    const p = await page((await api.get(`/tags/${tag.id}`)).body.url);

    expect(p.res.status).toBe(200);
    expect(p.text(p.one((e) => e.name === 'title'))).toBe('Tag: Accessible – Event calendar');
  });
});

describe('what is not a page', () => {
  it.each([
    ['an unknown event', '/event/no-such-event/'],
    ['an unknown venue', '/venue/no-such-venue/'],
    ['an unknown organizer', '/organizer/nobody/'],
    ['an unknown category', '/events/category/no-such-category/'],
    ['an unknown tag', '/tag/no-such-tag/'],
    ['a path below a page', '/event/a/b/'],
  ])('answers %s with an HTML 404 page, not JSON', async (_what, path) => {
    const p = await page(path);

    expect(p.res.status).toBe(404);
    expect(p.res.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect(p.text(p.one((e) => e.name === 'h1'))).toBe('Not found');
    expect(p.one((e) => e.name === 'a' && e.attribs.href === '/')).toBeTruthy();
  });

  it('answers a draft as not found: a visitor is not told it exists', async () => {
    const p = await page(draft.url);

    expect(p.res.status).toBe(404);
    expect(p.html).not.toContain('Secret');
  });

  it('answers a trashed event with an HTML 410 page', async () => {
    const p = await page(trashed.url);

    expect(p.res.status).toBe(410);
    expect(p.res.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect(p.text(p.one((e) => e.name === 'h1'))).toBe('No longer available');
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await fetch(`${api.origin}${new URL(event.url).pathname}`, { method: 'HEAD' });

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect(await res.text()).toBe('');
  });
});

describe("the API's links", () => {
  it('every url of an event and of what it links to leads to a page', async () => {
    const full = (await api.get(`/events/${event.id}`)).body;
    const urls = [full.url, full.venue.url, ...full.organizer.map((o: Rec) => o.url)];
    urls.push(
      (await api.get(`/categories/${jazz.id}`)).body.url,
      (await api.get(`/tags/${tag.id}`)).body.url,
    );

    for (const url of urls)
      expect({ url, status: (await page(url)).res.status }).toEqual({ url, status: 200 });
  });
});
