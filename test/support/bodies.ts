import { expect } from 'vitest';
import type { Schemas } from '../../client/src';
import type { Stack } from './stack';

/**
 * Valid request bodies, typed by the client from the contract: a test states only what it is about
 * (`anEvent({ categories: [jazz.id] })`). Names are numbered, so terms made by two calls never clash.
 */
let n = 0;
const next = () => ++n;

export const anEvent = (o: Partial<Schemas['CreateEventBody']> = {}): Schemas['CreateEventBody'] => ({
  title: `Event ${next()}`,
  start_date: '2030-06-01 19:00:00',
  end_date: '2030-06-01 21:00:00',
  ...o,
});

export const aVenue = (o: Partial<Schemas['CreateVenueBody']> = {}): Schemas['CreateVenueBody'] => ({
  venue: `Venue ${next()}`,
  ...o,
});

export const anOrganizer = (
  o: Partial<Schemas['CreateOrganizerBody']> = {},
): Schemas['CreateOrganizerBody'] => ({
  organizer: `Organizer ${next()}`,
  ...o,
});

export const aCategory = (o: Partial<Schemas['CreateCategoryBody']> = {}): Schemas['CreateCategoryBody'] => ({
  name: `Category ${next()}`,
  ...o,
});

export const aTag = (o: Partial<Schemas['CreateTagBody']> = {}): Schemas['CreateTagBody'] => ({
  name: `Tag ${next()}`,
  ...o,
});

/** A JSON record read loosely, for tests that probe fields as the API sends them. */
export type Rec = Record<string, any>;

/** `created(path, body)`: POSTs as `token`, expects 201 (saying what came back if not), answers the record. */
export const creator =
  (api: Stack, token: string) =>
  async (path: string, body: unknown): Promise<Rec> => {
    const res = await api.post(path, body, { token });
    expect(res.status, `POST ${path} ${JSON.stringify(res.body)}`).toBe(201);
    return res.body as Rec;
  };
