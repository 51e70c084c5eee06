import type { User } from '../http/auth';
import type { PostRecord } from '../repositories/posts';
import { type OrganizerData, organizers } from './organizers';
import { type VenueData, venues } from './venues';

/**
 * What events need of venues and organizers: their representation embedded in an event (with
 * `json_ld` on single GETs, reference §3.1), their JSON-LD for the event's own, and inline records.
 */
const asVenue = (p: PostRecord) => p as unknown as PostRecord<VenueData>;
const asOrganizer = (p: PostRecord) => p as unknown as PostRecord<OrganizerData>;

export const linkedPostView = (p: PostRecord, o: { root: string; single: boolean }) =>
  p.type === 'venue' ? venues.view(asVenue(p), o.single) : organizers.view(asOrganizer(p), o.single);

export const linkedPostJsonLd = (p: PostRecord) =>
  p.type === 'venue' ? venues.jsonLd(asVenue(p)) : organizers.jsonLd(asOrganizer(p));

/** The ID of the record an inline `venue` / `organizer` object of an event body names (reused or created). */
export function findOrCreateInline(
  type: 'venue' | 'organizer',
  body: Record<string, unknown>,
  user: User,
  param: string,
): Promise<number> {
  return (type === 'venue' ? venues : organizers).findOrCreate(body, user, param);
}
