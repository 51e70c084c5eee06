import type { PostRecord } from '../../domain/records';
import type { Infer } from '../../schemas/infer';
import type { organizerUpdateBySlugBody } from '../../schemas/organizer';
import type { LinkedData, LinkedPostView } from './post-type';
import { storedHtmlText } from '../../domain/html';

/** An organizer's own fields, stored under their API names in the post's `data` map. */
export interface OrganizerData extends LinkedData {
  phone?: string;
  website?: string;
  email?: string;
}

type Organizer = PostRecord<OrganizerData>;

/** Any organizer body: create, update or update by slug. */
export type OrganizerBody = Partial<Infer<typeof organizerUpdateBySlugBody>>;

export const organizerView: LinkedPostView<OrganizerData> = {
  type: 'organizer',
  kind: 'ORGANIZER',
  collection: 'organizers',

  fields: (o: Organizer) => ({ phone: o.data.phone, website: o.data.website, email: o.data.email }),

  always: () => ({}),

  /** schema.org Person (reference §3.3), plain values: the e-mail is not entity-obfuscated. */
  jsonLd: (o: Organizer) => ({
    '@type': 'Person',
    name: o.title,
    description: storedHtmlText(o.description),
    url: o.data.website ?? '',
    telephone: o.data.phone ?? '',
    email: o.data.email ?? '',
    sameAs: o.data.website ?? '',
  }),

  searchable: (o: Organizer) => [o.data.phone, o.data.email, o.data.website],
};
