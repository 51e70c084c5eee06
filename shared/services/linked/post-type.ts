import type { PostRecord } from '../../domain/records';

/**
 * What a venue or an organizer adds to the post mechanics they share (linked-posts.ts): its own
 * `data` fields, its keys in the representation and its JSON-LD. Everything else is common.
 */
export type LinkedType = 'venue' | 'organizer';

/** Fields both types keep in `data`. */
export interface LinkedData {
  image?: string;
}

/** A body read field by field where the field's name is data (the type's name field, `dataKeys`). */
export type Body = Record<string, unknown>;

/** How a venue-like type shows: what reads need (no input handling, so read bundles stay small). */
export interface LinkedPostView<D extends LinkedData> {
  type: LinkedType;
  kind: 'VENUE' | 'ORGANIZER';
  collection: 'venues' | 'organizers';
  /** The type's keys of the representation, in reference order; empty ones are dropped afterwards. */
  fields(p: PostRecord<D>): Record<string, unknown>;
  /** Keys appended after the empty ones are dropped (venues: `show_map`, `show_map_link`). */
  always(p: PostRecord<D>): Record<string, unknown>;
  jsonLd(p: PostRecord<D>, url: string): Record<string, unknown>;
  /** Texts `search` looks into besides the name, description and excerpt (reference §7.1). */
  searchable(p: PostRecord<D>): Array<string | undefined>;
}

/**
 * A venue-like type in full: its view and how its bodies become its `data`. `D`: the type's `data`;
 * `B`: its request bodies as the contract's schema types them (every field optional: creates require
 * the name, updates by slug the slug).
 */
export interface LinkedPostType<D extends LinkedData, B extends object = object> extends LinkedPostView<D> {
  /** Body keys stored under the same name in `data`; an inline record reuses one equal on these. */
  dataKeys: readonly string[];
  /** The type's `data` after a create (`prev` undefined) or a partial update; throws the 400s. */
  data(body: B, sent: Set<string>, prev: D | undefined): D;
}

/** An optional field after a create or partial update: absent keeps it, `null` or `""` clears it. */
export function nextOptional<T>(
  body: object,
  sent: Set<string>,
  key: string,
  prev: T | undefined,
  read: (value: unknown) => T | undefined,
): T | undefined {
  if (!sent.has(key)) return prev;
  const v = (body as Body)[key];
  return v === null || v === undefined || v === '' ? undefined : read(v);
}

/** Drops the keys whose value is undefined, so stored `data` maps hold only what is set. */
export function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
