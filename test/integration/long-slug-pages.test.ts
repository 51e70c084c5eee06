import { beforeAll, describe, expect, it } from 'vitest';
import { aCategory, aTag, aVenue, anEvent, anOrganizer, creator, type Rec } from '../support/bodies';
import { publicPage } from '../support/public-page';
import { useStack } from '../support/use-stack';

/**
 * Issue 43: an event page whose slug was over about 1,010 characters answered 503 to anyone, every
 * time (the slug reached the slug index's key condition, over DynamoDB's 1,024-byte key limit). A slug
 * longer than the slug limit (200 characters, the API's) names no record: the pages' 404, for every kind.
 * Slugs of multi-byte characters are as long in bytes as three or four times their length.
 */
const { api, tokens } = await useStack({ tokens: { editor: 'editor' } });

let made: Record<'event' | 'venue' | 'organizer' | 'tag' | 'category', Rec>;

beforeAll(async () => {
  const created = creator(api, tokens.editor);
  made = {
    event: await created('/events', anEvent({ title: 'Long slug neighbour', status: 'publish' })),
    venue: await created('/venues', aVenue()),
    organizer: await created('/organizers', anOrganizer()),
    tag: await created('/tags', aTag()),
    category: await created('/categories', aCategory()),
  };
});

const PREFIXES = ['/event/', '/venue/', '/organizer/', '/tag/', '/events/category/'];
const SLUGS: Array<[string, string]> = [
  ['201 characters', 'a'.repeat(201)],
  ['1,010 characters', 'a'.repeat(1010)],
  ['1,100 characters', 'b'.repeat(1100)],
  ['5,000 characters', 'c'.repeat(5000)],
  ['300 euro signs, percent-encoded (900 bytes)', encodeURIComponent('€'.repeat(300))],
  ['400 three-byte characters', encodeURIComponent('中'.repeat(400))],
  ['200 emoji (400 UTF-16 units, 800 bytes)', encodeURIComponent('🎉'.repeat(200))],
];

describe.each(PREFIXES)('a page %s<slug>/', (prefix) => {
  it.each(SLUGS)('whose slug is %s is the HTML 404 page', async (_what, slug) => {
    const p = await publicPage(api, `${prefix}${slug}/`);

    expect(p.res.status).toBe(404);
    expect(p.res.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect(p.html).toContain('Not found');
  });

  it('whose slug is at the limit and unknown is the 404 page too', async () => {
    expect((await publicPage(api, `${prefix}${'d'.repeat(200)}/`)).res.status).toBe(404);
    expect((await publicPage(api, `${prefix}${encodeURIComponent('🎉'.repeat(100))}/`)).res.status).toBe(404);
  });
});

describe('the records beside them', () => {
  it('are still served', async () => {
    for (const r of Object.values(made)) expect((await publicPage(api, r.url)).res.status).toBe(200);
  });
});

describe('the API by slug', () => {
  it.each(['events', 'venues', 'organizers'])(
    'answers a long %s slug with a 4xx, never a 5xx',
    async (type) => {
      for (const [, slug] of SLUGS) {
        const res = await api.get(`/${type}/by-slug/${slug}`);
        expect(res.status, `${type} ${slug.length}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${type} ${slug.length}`).toBeLessThan(500);
      }
    },
  );
});
