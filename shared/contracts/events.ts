import { eventCreateBody, eventListQuery, eventSchema, eventUpdateBody } from '../schemas/event';
import { postOperations } from './posts';

export const eventOps = postOperations({
  collection: 'events',
  one: 'event',
  item: eventSchema,
  listQuery: eventListQuery,
  createBody: eventCreateBody,
  updateBody: eventUpdateBody,
  updateBySlugBody: eventUpdateBody,
});
