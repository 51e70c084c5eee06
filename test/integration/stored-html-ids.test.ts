import { beforeAll, describe, expect, it } from 'vitest';
import { aCategory, aVenue, anEvent, creator, type Rec } from '../support/bodies';
import { publicPage } from '../support/public-page';
import { useStack } from '../support/use-stack';

/**
 * Issue 43: sanitized HTML kept `id` (and `name`) attributes, so a category description
 * `<img id="filters-toggle">` took over the page's own element (the phone's Filters button stopped
 * working: DOM clobbering). Stored HTML has neither; everything else of it stays.
 */
const { api, tokens } = await useStack({ tokens: { editor: 'editor' } });

const HOSTILE =
  '<p id="calendar" class="lead">Hi <img id="filters-toggle" src="https://images.example.org/a.png" alt="a" />' +
  '<a name="detail" id="editor" href="https://example.org/">link</a><span name="x" id="notice">s</span></p>';
const KEPT =
  '<p class="lead">Hi <img src="https://images.example.org/a.png" alt="a" />' +
  '<a href="https://example.org/">link</a><span>s</span></p>';

let category: Rec;
let venue: Rec;
let event: Rec;

beforeAll(async () => {
  const created = creator(api, tokens.editor);
  category = await created('/categories', aCategory({ description: HOSTILE }));
  venue = await created('/venues', aVenue({ description: HOSTILE }));
  event = await created('/events', anEvent({ status: 'publish', description: HOSTILE, excerpt: HOSTILE }));
});

describe('stored HTML', () => {
  it('keeps no id or name attribute, and the rest of the markup', async () => {
    expect((await api.get(`/categories/${category.id}`)).body.description).toBe(KEPT);
    expect((await api.get(`/venues/${venue.id}`)).body.description).toBe(KEPT);
    const e = (await api.get(`/events/${event.id}`)).body;
    expect(e.description).toBe(KEPT);
    expect(e.excerpt).toBe(KEPT);
  });

  it.each([
    ['category', () => category],
    ['venue', () => venue],
    ['event', () => event],
  ])("cannot take over the %s page's own elements", async (_kind, record) => {
    const p = await publicPage(api, record().url);

    expect(p.res.status).toBe(200);
    for (const id of ['filters-toggle', 'calendar', 'editor', 'notice']) {
      const owners = p.all((e) => e.attribs.id === id);
      expect(owners, id).toHaveLength(1);
      expect(owners[0]!.name, id).not.toBe('img');
    }
    expect(p.all((e) => e.attribs.name === 'detail')).toHaveLength(0);
  });
});
