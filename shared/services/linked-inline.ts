import type { User } from '../domain/roles';
import { linkedPostWrites } from './linked-write';
import { organizerType } from './organizer-type';
import { venueType } from './venue-type';

const writers = { venue: linkedPostWrites(venueType), organizer: linkedPostWrites(organizerType) };

/** The ID of the record an inline `venue` / `organizer` object of an event body names (reused or created). */
export function findOrCreateInline(
  type: 'venue' | 'organizer',
  body: Record<string, unknown>,
  user: User,
  param: string,
): Promise<number> {
  return writers[type].findOrCreate(body, user, param);
}
