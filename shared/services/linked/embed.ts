import { publicUrl } from '../../domain/post-rules';
import type { PostRecord } from '../../domain/records';
import { linkedView } from './post-view';
import { type OrganizerData, organizerView } from './organizer-type';
import { type VenueData, venueView } from './venue-type';

/**
 * What events show of their venues and organizers: the representation embedded in an event (with
 * `json_ld` on single GETs, reference §3.1) and the JSON-LD for the event's own.
 */
const asVenue = (p: PostRecord) => p as unknown as PostRecord<VenueData>;
const asOrganizer = (p: PostRecord) => p as unknown as PostRecord<OrganizerData>;

export const linkedPostView = (p: PostRecord, o: { root: string; single: boolean }) =>
  p.type === 'venue'
    ? linkedView(venueView, asVenue(p), o.single)
    : linkedView(organizerView, asOrganizer(p), o.single);

export const linkedPostJsonLd = (p: PostRecord) =>
  p.type === 'venue'
    ? venueView.jsonLd(asVenue(p), publicUrl('venue', p.slug))
    : organizerView.jsonLd(asOrganizer(p), publicUrl('organizer', p.slug));
