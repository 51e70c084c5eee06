import { slugify } from '../shared/domain/slugs';

/**
 * Which stored slugs `npm run slugs` re-derives (issue 39, decisions §9), as pure rules. Before §9 a
 * slug dropped every letter outside Latin (`Концерт Juniper` → `juniper`), so distinct names collapsed
 * (`meetup`, `meetup-2`) and a name of no Latin letter got the record's ID (`207`).
 */

/** The rule slugs were made by before decisions §9, kept only to recognise what it made. */
export function legacySlug(input: string): string {
  return input
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(
      /[ßæœøđðłþ]/g,
      (c) => ({ ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', ł: 'l', þ: 'th' })[c]!,
    )
    .replace(/&[a-z0-9#]+;/g, '')
    .replace(/[^a-z0-9_\-\s.]+/g, '')
    .replace(/[\s._]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 190);
}

export interface Named {
  id: number;
  slug: string;
  /** The title of an event, the name of a venue, organizer or term. */
  name: string;
}

/**
 * The slug a record should have, or undefined when its slug stays: one made from its ID, or the old
 * rule's slug of its name (maybe with the `-N` a collapse gave it) where the rule of §9 gives another.
 * A slug someone chose (neither of those) is kept, as is one the new rule cannot improve on.
 */
export function rederived(r: Named): string | undefined {
  const fresh = slugify(r.name);
  if (!fresh || fresh === r.slug) return undefined;
  if (r.slug === String(r.id)) return fresh;
  const old = legacySlug(r.name);
  if (!old || old === fresh) return undefined;
  const collapsed =
    r.slug === old || new RegExp(`^${old.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-\\d+$`).test(r.slug);
  return collapsed ? fresh : undefined;
}

/** The `url` a record gets with slug `to` in place of `from` (the last segment of its path). */
export const urlWithSlug = (url: string, from: string, to: string): string =>
  url.replace(new RegExp(`/${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/$`), () => `/${to}/`);
