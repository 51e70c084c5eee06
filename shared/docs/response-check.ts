import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Checks responses against an OpenAPI 3.1 document (the one served at `/doc`): the integration tests
 * run every response they receive through it.
 */

type Json = Record<string, unknown>;

/** Anything headers can be read from: fetch `Headers` or a plain object (names in any case). */
export type HeaderSource = { get(name: string): string | null } | Record<string, string | undefined>;

/**
 * @param method   HTTP method, any case.
 * @param path     OpenAPI path template as in `paths` (`/categories/{id}`); see {@link templateFor}.
 * @param headers  when given, headers the document marks `required` must be present.
 * @returns the problems found; empty when the response matches the document.
 */
export type ResponseCheck = (
  method: string,
  path: string,
  status: number,
  body: unknown,
  headers?: HeaderSource,
) => string[];

const DOC_ID = 'https://openapi.invalid/doc.json';

const pointer = (...parts: string[]) =>
  parts.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

function headerValue(headers: HeaderSource, name: string): string | null | undefined {
  if (typeof headers.get === 'function') return (headers as { get(n: string): string | null }).get(name);
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : (headers as Record<string, string | undefined>)[key];
}

const at = (doc: Json, parts: string[]) =>
  parts.reduce<unknown>((node, p) => (node as Json | undefined)?.[p], doc) as Json | undefined;

/** The location of the node at `parts` after following local `$ref`s (`#/components/...`), and the node. */
function resolve(doc: Json, parts: string[]): { parts: string[]; node: Json | undefined } {
  let node = at(doc, parts);
  while (node && typeof node.$ref === 'string' && node.$ref.startsWith('#/')) {
    parts = node.$ref
      .slice(2)
      .split('/')
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    node = at(doc, parts);
  }
  return { parts, node };
}

export function responseValidatorFor(doc: object): ResponseCheck {
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: false });
  addFormats(ajv);
  // The whole document is one resource, so `#/components/schemas/...` refs inside schemas resolve.
  ajv.addSchema({ ...(doc as Json), $id: DOC_ID });
  const compiled = new Map<string, ValidateFunction>();
  const paths = ((doc as Json).paths ?? {}) as Record<string, Record<string, Json>>;

  return (method, path, status, body, headers) => {
    const m = method.toLowerCase();
    const operation = paths[path]?.[m];
    if (!operation) return [`${method.toUpperCase()} ${path} is not documented`];
    const responses = (operation.responses ?? {}) as Json;
    const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => k in responses);
    if (!key) return [`${method.toUpperCase()} ${path}: status ${status} is not documented`];
    const { parts, node: response = {} } = resolve(doc as Json, ['paths', path, m, 'responses', key]);
    const problems: string[] = [];

    for (const name of Object.keys((response.headers ?? {}) as Json)) {
      const spec = resolve(doc as Json, [...parts, 'headers', name]).node;
      if (headers && spec?.required === true && headerValue(headers, name) == null)
        problems.push(`${method.toUpperCase()} ${path} ${status}: header ${name} is missing`);
    }

    const content = response.content as Json | undefined;
    // A body that is not JSON (text/calendar) is documented under its own media type, its schema a
    // string's; a status documented in several media types (JSON or text/csv) is checked as the one sent.
    const sentType = headers && headerValue(headers, 'Content-Type')?.split(';')[0]!.trim();
    const mediaType =
      sentType && content?.[sentType]
        ? sentType
        : content?.['application/json']
          ? 'application/json'
          : Object.keys(content ?? {})[0];
    if (!mediaType) {
      if (body !== undefined && body !== '')
        problems.push(`${method.toUpperCase()} ${path} ${status}: no body is documented`);
      return problems;
    }
    const sent = headers && headerValue(headers, 'Content-Type');
    if (mediaType !== 'application/json' && sent != null && sent.split(';')[0]!.trim() !== mediaType)
      problems.push(`${method.toUpperCase()} ${path} ${status}: Content-Type ${sent} is not ${mediaType}`);
    const ref = `${DOC_ID}#/${pointer(...parts, 'content', mediaType, 'schema')}`;
    let validate = compiled.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: ref });
      compiled.set(ref, validate);
    }
    if (!validate(body))
      for (const e of validate.errors ?? [])
        problems.push(
          `${method.toUpperCase()} ${path} ${status}: body${e.instancePath} ${e.message ?? 'is invalid'} ${JSON.stringify(e.params)}`,
        );
    return problems;
  };
}

/**
 * The OpenAPI path template a concrete request path matches: `/categories/12?page=2` → `/categories/{id}`.
 * Takes the path below the API root (or a full URL under `serverUrl`); `undefined` when none matches.
 */
export function templateFor(doc: object, requestPath: string, serverUrl?: string): string | undefined {
  let path =
    serverUrl && requestPath.startsWith(serverUrl.replace(/\/$/, ''))
      ? requestPath.slice(serverUrl.replace(/\/$/, '').length)
      : requestPath;
  path = `/${path.split(/[?#]/)[0]!.replace(/^\/+|\/+$/g, '')}`;
  const templates = Object.keys(((doc as Json).paths ?? {}) as Json);
  if (templates.includes(path)) return path;
  return templates.find((t) => {
    const source = t
      .split('/')
      .map((seg) =>
        seg === '{id}' ? '\\d+' : /^\{\w+\}$/.test(seg) ? '[^/]+' : seg.replace(/[.*+?^$()|[\]\\]/g, '\\$&'),
      )
      .join('/');
    return new RegExp(`^${source}$`).test(path);
  });
}
