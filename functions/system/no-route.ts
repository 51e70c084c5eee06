import { matchRoute } from '../../shared/contracts';
import { systemOps } from '../../shared/contracts/system';
import { NAMESPACE_PATH } from '../../shared/config';
import { createHandler } from '../../shared/http/handler';
import { ApiError, methodNotAllowed, noRoute } from '../../shared/http/errors';

/**
 * The gateway's `$default` route: 404 for an unknown path, 405 with `Allow` for a known path with
 * another method, and a 308 to the same URL without its trailing slash, which no route key carries.
 */
export const handler = createHandler(
  { ...systemOps.doc, operationId: 'noRoute', path: '/{proxy+}' },
  async ({ urls }) => {
    const { method, rawPath } = urls;
    const prefix = NAMESPACE_PATH;
    if (!rawPath.startsWith(prefix) || (rawPath.length > prefix.length && rawPath[prefix.length] !== '/'))
      throw noRoute();
    const { match, allow } = matchRoute(method, urls.path);
    if (match && rawPath.endsWith('/')) {
      const location = `${urls.root}${urls.path}${urls.rawQuery ? `?${urls.rawQuery}` : ''}`;
      throw new ApiError(
        308,
        'rest_redirect',
        'The URL carries a trailing slash; repeat the request without it.',
        {},
        { Location: location },
      );
    }
    if (allow.length > 0) throw methodNotAllowed([...new Set(allow)]);
    throw noRoute();
  },
);
