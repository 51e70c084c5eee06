import {
  venueCreateBody,
  venueListQuery,
  venueSchema,
  venueUpdateBody,
  venueUpdateBySlugBody,
} from '../schemas/venue';
import { postOperations } from './posts';

export const venueOps = postOperations({
  collection: 'venues',
  one: 'venue',
  item: venueSchema,
  listQuery: venueListQuery,
  createBody: venueCreateBody,
  updateBody: venueUpdateBody,
  updateBySlugBody: venueUpdateBySlugBody,
});
