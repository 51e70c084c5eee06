/**
 * Every key format of the single table lives here.
 *
 * Entities (pk / sk):
 *   counter          COUNTER / post|term             atomic ID sequences (posts share one, terms another)
 *   term             TERM#<id> / TERM                 category or tag; gsi1 = TAXONOMY#<taxonomy> / <slug>
 *   post             POST#<id> / POST                 event, venue or organizer; gsi1 = TYPE#<type> / <slug>,
 *                                                     gsi2 = TYPE#<type> / <sort date>#<id>, events: gsi3 by end
 *   link             POST#<eventId> / LINK#<kind>#<id> an event's term / venue / organizer assignment;
 *                                                     gsi4 = <KIND>#<id> / <utc start>#<eventId>
 *   slug guard       SLUG#<type>#<slug> / GUARD        unique slug per type, written in the record's transaction
 *   term name guard  TERMNAME#<taxonomy>#<name> / GUARD unique term name per taxonomy
 *
 * Access patterns: term by id (GetItem); terms of a taxonomy (gsi1 partition); taken slugs with a prefix
 * (gsi1 begins_with); post by id; post by slug (gsi1); events by start or end range (gsi2 / gsi3);
 * events of a term, venue or organizer by start (gsi4); an event's links (pk query, LINK# prefix).
 */

export type Taxonomy = 'tribe_events_cat' | 'post_tag';
export type PostType = 'event' | 'venue' | 'organizer';
export type LinkKind = 'TERM' | 'VENUE' | 'ORGANIZER';

const pad = (n: number) => String(n).padStart(12, '0');

export const keys = {
  counter: (sequence: 'post' | 'term') => ({ pk: 'COUNTER', sk: sequence }),

  term: (id: number) => ({ pk: `TERM#${id}`, sk: 'TERM' }),
  termIndex: (taxonomy: Taxonomy, slug: string) => ({ gsi1pk: `TAXONOMY#${taxonomy}`, gsi1sk: slug }),
  taxonomyPartition: (taxonomy: Taxonomy) => `TAXONOMY#${taxonomy}`,
  termNameGuard: (taxonomy: Taxonomy, name: string) => ({
    pk: `TERMNAME#${taxonomy}#${name.trim().toLowerCase()}`,
    sk: 'GUARD',
  }),

  post: (id: number) => ({ pk: `POST#${id}`, sk: 'POST' }),
  typePartition: (type: PostType) => `TYPE#${type}`,
  postSlugIndex: (type: PostType, slug: string) => ({ gsi1pk: `TYPE#${type}`, gsi1sk: slug }),
  postDateIndex: (type: PostType, sortDate: string, id: number) => ({
    gsi2pk: `TYPE#${type}`,
    gsi2sk: `${sortDate}#${pad(id)}`,
  }),
  eventEndIndex: (utcEnd: string, id: number) => ({ gsi3pk: 'TYPE#event', gsi3sk: `${utcEnd}#${pad(id)}` }),

  slugGuard: (type: PostType | Taxonomy, slug: string) => ({ pk: `SLUG#${type}#${slug}`, sk: 'GUARD' }),

  link: (eventId: number, kind: LinkKind, targetId: number) => ({
    pk: `POST#${eventId}`,
    sk: `LINK#${kind}#${targetId}`,
  }),
  linkPrefix: (kind?: LinkKind) => (kind ? `LINK#${kind}#` : 'LINK#'),
  linkIndex: (kind: LinkKind, targetId: number, utcStart: string, eventId: number) => ({
    gsi4pk: `${kind}#${targetId}`,
    gsi4sk: `${utcStart}#${pad(eventId)}`,
  }),
  assignmentPartition: (kind: LinkKind, targetId: number) => `${kind}#${targetId}`,
};
