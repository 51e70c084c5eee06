import { beforeAll, describe, expect, it } from 'vitest';
import { aVenue, anEvent, anOrganizer, creator, type Rec } from '../support/bodies';
import { publicPage } from '../support/public-page';
import { useStack } from '../support/use-stack';

/**
 * Issue 43: `$` patterns in a record's text are text. A string replacement in the page template
 * expanded `$$`, `` $` ``, `$'` and `$&`, so a title `Cash $$ prize` showed as `Cash $ prize` and
 * ``Price $` here`` copied the page into itself (8 doctypes, 15 `<main>`s, a JSON-LD block that did
 * not parse).
 */
const { api, tokens } = await useStack({ tokens: { editor: 'editor' } });

const TEXTS = ['Cash $$ prize', 'Price $` here', "It's $' after", 'Match $& this', "All $1 $$$ $`$'$&"];

const made: Array<{ text: string; event: Rec; venue: Rec; organizer: Rec }> = [];

beforeAll(async () => {
  const created = creator(api, tokens.editor);
  for (const text of TEXTS) {
    const venue = await created('/venues', aVenue({ venue: text, description: `<p>${text}</p>` }));
    const organizer = await created(
      '/organizers',
      anOrganizer({ organizer: text, description: `<p>${text}</p>` }),
    );
    const event = await created(
      '/events',
      anEvent({
        title: text,
        status: 'publish',
        description: `<p>${text}</p>`,
        cost: text,
        venue: [venue.id],
        organizer: [organizer.id],
      }),
    );
    made.push({ text, event, venue, organizer });
  }
});

describe.each(TEXTS.map((text, i) => ({ text, i })))('a record named $text', ({ text, i }) => {
  it.each(['event', 'venue', 'organizer'] as const)(
    'has its %s page with the text exactly once',
    async (kind) => {
      const p = await publicPage(api, made[i]![kind].url);

      expect(p.res.status).toBe(200);
      expect(p.doctypes).toBe(1);
      expect(p.mains).toBe(1);
      expect(p.title()).toBe(`${text} – Event calendar`);
      expect(p.meta('og:title')).toBe(text);
      expect(p.meta('twitter:title')).toBe(text);
      expect(p.jsonLdTexts).toHaveLength(1);
      const ld = p.jsonLd()[0]!;
      expect(ld.name).toBe(text);
      expect(ld.description).toBe(text);
    },
  );
});
