import { publicUrl } from '../domain/post-rules';
import type { PostRecord } from '../domain/records';
import { linkedView } from './linked-post-view';
import { type OrganizerData, organizerType } from './organizer-type';
import { type VenueData, venueType } from './venue-type';

/**
 * What events show of their venues and organizers: the representation embedded in an event (with
 * `json_ld` on single GETs, reference §3.1) and the JSON-LD for the event's own.
 */
const asVenue = (p: PostRecord) => p as unknown as PostRecord<VenueData>;
const asOrganizer = (p: PostRecord) => p as unknown as PostRecord<OrganizerData>;

export const linkedPostView = (p: PostRecord, o: { root: string; single: boolean }) =>
  p.type === 'venue'
    ? linkedView(venueType, asVenue(p), o.single)
    : linkedView(organizerType, asOrganizer(p), o.single);

export const linkedPostJsonLd = (p: PostRecord) =>
  p.type === 'venue'
    ? venueType.jsonLd(asVenue(p), publicUrl('venue', p.slug))
    : organizerType.jsonLd(asOrganizer(p), publicUrl('organizer', p.slug));
