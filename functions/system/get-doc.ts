import type { systemOps } from '../../shared/contracts/system';
import { buildOpenApi, type OpenApiDocument } from '../../shared/docs/openapi';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/getDocumentation';

/** Generated once per API root (the contracts do not change while the function runs). */
const cache = new Map<string, OpenApiDocument>();

/** `GET /cal/events/v1/doc`: the OpenAPI 3.1 document, `servers[0].url` = the API root with a slash. */
export const handler = createHandler<typeof systemOps.doc>(compiled, async (req) => {
  const doc = cache.get(req.urls.root) ?? buildOpenApi(`${req.urls.root}/`);
  cache.set(req.urls.root, doc);
  return { body: doc };
});
