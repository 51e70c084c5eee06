import {
  clearable,
  imageField,
  linkedBodies,
  linkedItemSchema,
  linkedListQuery,
  linkedPostFields,
  nameField,
  str,
  websiteField,
} from './linked-post';

/** Organizer fields of spec §2.3 in its order. */
const organizerFields = {
  organizer: nameField('organizer'),
  ...linkedPostFields('organizer'),
  phone: clearable('The organizer phone number.'),
  website: websiteField('organizer'),
  email: clearable('The organizer e-mail address; internationalized addresses (RFC 6531) too.'),
  image: imageField('organizer'),
} as const;

const bodies = linkedBodies('organizer', organizerFields);
export const organizerCreateBody = bodies.create;
export const organizerUpdateBody = bodies.update;
export const organizerUpdateBySlugBody = bodies.updateBySlug;

export const organizerListQuery = linkedListQuery('organizer', 'Organizers');

/** An organizer as every organizer route returns it (reference §3.3). */
export const organizerSchema = linkedItemSchema('organizer', { phone: str, website: str, email: str });
