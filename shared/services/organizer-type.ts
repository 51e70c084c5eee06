import type { PostRecord } from '../domain/records';
import type { Infer } from '../schemas/infer';
import { organizerCreateBody, type organizerUpdateBySlugBody } from '../schemas/organizer';
import { compact, type LinkedData, type LinkedPostType, nextOptional } from './linked-post-type';
import { plainText } from '../domain/text';
import { emailAddress, httpUrl } from '../domain/web-input';

/** An organizer's own fields, stored under their API names in the post's `data` map. */
export interface OrganizerData extends LinkedData {
  phone?: string;
  website?: string;
  email?: string;
}

type Organizer = PostRecord<OrganizerData>;

/** Any organizer body: create, update or update by slug. */
export type OrganizerBody = Partial<Infer<typeof organizerUpdateBySlugBody>>;

export const organizerType: LinkedPostType<OrganizerData, OrganizerBody> = {
  type: 'organizer',
  kind: 'ORGANIZER',
  collection: 'organizers',
  createBody: organizerCreateBody,
  dataKeys: ['phone', 'website', 'email', 'image'],

  data: (body, sent, prev) =>
    compact({
      phone: nextOptional(body, sent, 'phone', prev?.phone, (v) => plainText(String(v)) || undefined),
      website: nextOptional(body, sent, 'website', prev?.website, (v) => httpUrl('website', String(v))),
      email: nextOptional(body, sent, 'email', prev?.email, (v) => emailAddress('email', String(v))),
    }),

  fields: (o: Organizer) => ({ phone: o.data.phone, website: o.data.website, email: o.data.email }),

  always: () => ({}),

  /** schema.org Person (reference §3.3), plain values: the e-mail is not entity-obfuscated. */
  jsonLd: (o: Organizer) => ({
    '@type': 'Person',
    name: o.title,
    description: plainText(o.description),
    url: o.data.website ?? '',
    telephone: o.data.phone ?? '',
    email: o.data.email ?? '',
    sameAs: o.data.website ?? '',
  }),

  searchable: (o: Organizer) => [o.data.phone, o.data.email, o.data.website],
};
