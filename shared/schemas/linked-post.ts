import { STATUSES } from '../domain/statuses';
import { LIMITS, list, nonEmptyText, paging, postHeadFields, text } from './common';

/**
 * What venues and organizers have in common: the post fields of their request bodies, their list
 * query and the head and tail of their representations (reference §3.2 / §3.3).
 */
export type LinkedNoun = 'venue' | 'organizer';

/** An optional text field; `null` or `""` clears it on update (decisions §6). */
export const clearable = (description: string, maxLength: number = LIMITS.string) =>
  ({ type: ['string', 'null'], maxLength, description }) as const;

/** Fields of both types' bodies, in the spec's order; the name comes first. */
export const linkedPostFields = <N extends LinkedNoun>(noun: N) =>
  ({
    author: {
      type: ['string', 'integer'],
      minLength: 1,
      maxLength: 200,
      description: `The ${noun} author: the user's token subject (editors and administrators only).`,
    },
    date: text(`The ${noun} publication date, in the site time zone.`, 100),
    date_utc: text(`The ${noun} publication date in UTC.`, 100),
    description: clearable(`The ${noun} description (safe HTML).`, LIMITS.description),
    status: { type: 'string', enum: STATUSES, description: `The ${noun} post status.` },
  }) as const;

export const nameField = (noun: LinkedNoun) => nonEmptyText(`The ${noun} name (plain text).`, LIMITS.name);

export const websiteField = (noun: LinkedNoun) => clearable(`The ${noun} website: an http or https URL.`);

export const imageField = (noun: LinkedNoun) =>
  ({
    type: ['string', 'integer', 'null'],
    maxLength: LIMITS.string,
    description: `The ${noun} featured image: an http or https URL (there is no media library, so no image IDs).`,
  }) as const;

const slugField = (noun: LinkedNoun) =>
  nonEmptyText(
    `A new slug for the ${noun}: renames it (the path's slug names the record). WordPress's rule (decisions §9), cut to 200 characters.`,
  );

/**
 * A truthy / falsy filter. The spec declares no type for these (`any`), so none is declared here
 * either; the boolean spellings of decisions §8 are the accepted values and anything else is a 400.
 */
const flag = (description: string) =>
  ({ enum: [true, false, 'true', 'false', '1', '0'], description }) as const;

export const linkedListQuery = <N extends LinkedNoun>(noun: N, plural: string) =>
  ({
    type: 'object',
    properties: {
      ...paging,
      search: nonEmptyText(
        `${plural} whose name, description or ${noun === 'venue' ? 'address fields' : 'phone, e-mail or website'} contain every word.`,
        200,
      ),
      event: { type: 'integer', minimum: 1, description: `${plural} linked to this event ID.` },
      has_events: flag(
        `true: ${plural.toLowerCase()} linked to events the caller may see; false: ${plural.toLowerCase()} without any.`,
      ),
      only_with_upcoming: {
        ...flag(`true: only ${plural.toLowerCase()} linked to events that have not ended yet.`),
        default: false,
      },
      status: list(
        { type: 'string', enum: STATUSES },
        'Post statuses to list (editing roles only, besides publish).',
      ),
    },
  }) as const;

/**
 * Create (name required), update and update-by-slug bodies. The path's slug satisfies spec §4.1 rule 5
 * (decisions §6): a by-slug body may omit `slug`, and a `slug` in it renames the record.
 */
export const linkedBodies = <N extends LinkedNoun, const F extends Record<string, object>>(
  noun: N,
  fields: F,
) =>
  ({
    create: { type: 'object', properties: fields, required: [noun] },
    update: { type: 'object', properties: fields },
    updateBySlug: { type: 'object', properties: { ...fields, slug: slugField(noun) } },
  }) as const;

export const str = { type: 'string' } as const;

const imageOut = {
  type: 'object',
  properties: { url: str, id: { type: 'null' }, extension: str },
  required: ['url', 'id', 'extension'],
  additionalProperties: false,
} as const;

/**
 * The representation (reference §3.2 / §3.3): the common head, the type's own keys, then `json_ld`
 * (single GETs) and the global IDs. Empty values are omitted, so few keys are required.
 */
export const linkedItemSchema = <N extends LinkedNoun, const F extends Record<string, object>>(
  noun: N,
  fields: F,
  alwaysThere: readonly string[] = [],
) =>
  ({
    type: 'object',
    properties: {
      id: { type: 'integer' },
      ...postHeadFields,
      ...({ [noun]: str } as { [K in N]: typeof str }),
      description: str,
      excerpt: str,
      slug: str,
      image: imageOut,
      ...fields,
      json_ld: { type: 'object' },
      global_id: str,
      global_id_lineage: { type: 'array', items: str },
    },
    required: ['id', 'status', 'url', noun, 'slug', 'global_id', 'global_id_lineage', ...alwaysThere],
    additionalProperties: false,
  }) as const;
