import { TICKETS_NAMESPACE } from '../../shared/config';
import type { ticketSystemOps } from '../../shared/contracts/tickets';
import { buildNamespaceIndex, type NamespaceIndex } from '../../shared/docs/namespace-index';
import { ApiError } from '../../shared/http/errors';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/getTicketsNamespaceIndex';

/** Generated once per API root (the contracts do not change while the function runs). */
const cache = new Map<string, NamespaceIndex>();

/** `GET /cal/tickets/v1`: the tickets namespace's index, as `GET /cal/events/v1` is the events'. */
export const handler = createHandler<typeof ticketSystemOps.index>(compiled, async (req) => {
  if (req.query.namespace !== undefined && req.query.namespace !== TICKETS_NAMESPACE)
    throw new ApiError(404, 'rest_invalid_namespace', 'The specified namespace could not be found.');
  const index = cache.get(req.urls.root) ?? buildNamespaceIndex(req.urls.root, undefined, TICKETS_NAMESPACE);
  cache.set(req.urls.root, index);
  return { body: index };
});
