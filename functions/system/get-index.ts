import { NAMESPACE } from '../../shared/config';
import type { systemOps } from '../../shared/contracts/system';
import { buildNamespaceIndex, type NamespaceIndex } from '../../shared/docs/namespace-index';
import { ApiError } from '../../shared/http/errors';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/getNamespaceIndex';

/** Generated once per API root (the contracts do not change while the function runs). */
const cache = new Map<string, NamespaceIndex>();

/**
 * `GET /cal/events/v1`: the namespace index. As in WordPress, `namespace` names the namespace to
 * describe; this API has only its own, so any other value is a 404 `rest_invalid_namespace`.
 */
export const handler = createHandler<typeof systemOps.index>(compiled, async (req) => {
  if (req.query.namespace !== undefined && req.query.namespace !== NAMESPACE)
    throw new ApiError(404, 'rest_invalid_namespace', 'The specified namespace could not be found.');
  const index = cache.get(req.urls.root) ?? buildNamespaceIndex(req.urls.root);
  cache.set(req.urls.root, index);
  return { body: index };
});
