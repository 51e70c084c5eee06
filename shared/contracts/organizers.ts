import {
  organizerCreateBody,
  organizerListQuery,
  organizerSchema,
  organizerUpdateBody,
  organizerUpdateBySlugBody,
} from '../schemas/organizer';
import { postOperations } from './posts';

export const organizerOps = postOperations({
  collection: 'organizers',
  one: 'organizer',
  item: organizerSchema,
  listQuery: organizerListQuery,
  createBody: organizerCreateBody,
  updateBody: organizerUpdateBody,
  updateBySlugBody: organizerUpdateBySlugBody,
});
