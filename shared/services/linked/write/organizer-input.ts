import { plainText } from '../../../domain/text';
import { emailAddress, httpUrl } from '../../../domain/web-input';
import { compact, type LinkedPostType, nextOptional } from '..';
import { type OrganizerBody, type OrganizerData, organizerView } from '..';

/** How organizer bodies become a organizer's `data` (the write path; reads use organizerView alone). */
export const organizerType: LinkedPostType<OrganizerData, OrganizerBody> = {
  ...organizerView,
  dataKeys: ['phone', 'website', 'email', 'image'],

  data: (body, sent, prev) =>
    compact({
      phone: nextOptional(body, sent, 'phone', prev?.phone, (v) => plainText(String(v)) || undefined),
      website: nextOptional(body, sent, 'website', prev?.website, (v) => httpUrl('website', String(v))),
      email: nextOptional(body, sent, 'email', prev?.email, (v) => emailAddress('email', String(v))),
    }),
};
