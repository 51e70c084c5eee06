import { NAMESPACE } from '../config';
import { operations as allOperations } from '../contracts';
import type { HttpMethod, Operation, ResponseSpec } from '../contracts/types';
import { errorEnvelope } from '../schemas/common';

/**
 * The OpenAPI 3.1 document served at `/doc`, generated from the operation contracts. Contract schemas
 * are JSON Schema 2020-12, which OpenAPI 3.1 takes as they are.
 */

type Json = Record<string, unknown>;
type Schema = Readonly<Record<string, unknown>>;

export type OpenApiOperation = {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security: Array<Record<string, string[]>>;
  parameters?: Json[];
  requestBody?: Json;
  responses: Record<string, Json>;
  /** Below another namespace than the document's (cal/tickets/v1): its own server, OpenAPI's per-operation override. */
  servers?: Array<{ url: string }>;
};

export type OpenApiDocument = {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: Array<{ url: string }>;
  paths: Record<string, Partial<Record<Lowercase<HttpMethod>, OpenApiOperation>>>;
  components: {
    schemas: Record<string, unknown>;
    responses: Record<string, Json>;
    headers: Record<string, Json>;
    securitySchemes: Record<string, Json>;
  };
};

export const INFO = {
  title: 'Event Calendar REST API',
  version: '1.0.0',
  description:
    'Events, venues, organizers, event categories and tags (namespace cal/events/v1), compatible with ' +
    'The Events Calendar REST API (tribe/events/v1). Lists are envelopes with paging totals, not bare arrays.\n\n' +
    '**Conditional requests.** Every JSON success carries a strong `ETag`; a GET sent with `If-None-Match` ' +
    "holding it is answered 304 without a body while nothing the caller sees has changed. A record's ETag " +
    '(`"<id>-<version>-<digest>"`) names its stored version: an update or delete sent with `If-Match` ' +
    'holding it is applied only if the record is still at that version (checked in the same transaction ' +
    'as the write), else 412 `rest_precondition_failed` and nothing changes. `If-Match: *` matches any ' +
    'existing record.\n\n' +
    '**Safe retries.** A create sent with an `Idempotency-Key` (any 1 to 255 printable ASCII characters, ' +
    'a UUID for example) is done at most once per caller and key for 24 hours: sent again with the same ' +
    'body it gets the first answer (status, body, `Location`, `ETag`, and `Idempotent-Replayed: true`); ' +
    'with another body it is 422 `rest_idempotency_key_reused`; while the first is still running, 409 ' +
    '`rest_idempotency_in_progress` with `Retry-After`. A 503 `rest_timeout` means the write may have ' +
    'landed: retrying with the same key is safe.',
} as const;

const BODY_TYPES = ['application/json', 'application/x-www-form-urlencoded'] as const;

const header = (description: string, schema: Json, required = true) => ({ description, required, schema });
const integer = { type: 'integer', minimum: 0 };
const string = { type: 'string' };

/** Response headers, referenced from the responses that carry them. */
const HEADERS: Record<string, Json> = {
  'X-Cal-API-Version': header('Version of the API.', { type: 'string', const: 'v1' }),
  'X-Cal-API-Root': header('The API root, with a trailing slash.', string),
  'X-Cal-Total': header('Number of records matching the query.', integer),
  'X-Cal-TotalPages': header('Number of pages at the requested page size.', integer),
  Link: header('RFC 8288 links to the next and previous pages, when there are any.', string, false),
  Location: header('URL of the new record.', string),
  'Retry-After': header('Seconds to wait before retrying.', integer),
  Allow: header('Methods the path takes.', string),
  ETag: header(
    'Strong entity tag of the body: `"<id>-<version>-<digest>"` for a record (send it in If-Match to update or delete only that version), `"<digest>"` for a list. Send it in If-None-Match to get a 304 while nothing changed.',
    string,
  ),
  'Idempotent-Replayed': header(
    'true when this is the stored answer of an earlier request with the same Idempotency-Key.',
    { type: 'string', const: 'true' },
    false,
  ),
};

/** Request headers of conditional requests and safe retries, by the responses they lead to. */
const REQUEST_HEADERS: Array<{ status: number; name: string; description: string; schema: Json }> = [
  {
    status: 304,
    name: 'If-None-Match',
    description: 'ETags the caller holds: a 304 without a body when the current one is among them.',
    schema: string,
  },
  {
    status: 412,
    name: 'If-Match',
    description:
      'The ETag of the version the caller read (or `*`): the write applies only to that version, else 412.',
    schema: string,
  },
  {
    status: 201,
    name: 'Idempotency-Key',
    description:
      'A key unique to this create (a UUID): sent again within 24 hours with the same body, the create is not repeated and its first answer is returned.',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  },
];
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

const pascal = (s: string) => s[0]!.toUpperCase() + s.slice(1);
const isArraySchema = (s: Schema) =>
  s.type === 'array' || (Array.isArray(s.type) && s.type.includes('array'));
const isListEnvelope = (s: Schema | undefined) =>
  !!s && typeof s.properties === 'object' && s.properties !== null && 'total_pages' in s.properties;

/**
 * Named schemas of `components.schemas`, keyed by object identity: a contract schema object used in
 * several places is emitted once and referenced everywhere else.
 */
class SchemaRegistry {
  private readonly names = new Map<object, string>();
  private readonly schemas: Record<string, object> = {};

  constructor() {
    this.add(errorEnvelope, 'Error');
  }

  /** Names a schema unless it already has a name; `fallback` is used when `name` is taken. */
  add(schema: object, name: string, fallback?: string): void {
    if (this.names.has(schema)) return;
    const free = !(name in this.schemas)
      ? name
      : fallback && !(fallback in this.schemas)
        ? fallback
        : undefined;
    if (!free) return;
    this.names.set(schema, free);
    this.schemas[free] = schema;
  }

  /** A copy of `schema` with every named schema in it (itself included) replaced by a `$ref`. */
  ref(schema: unknown): unknown {
    if (Array.isArray(schema)) return schema.map((s) => this.ref(s));
    if (typeof schema !== 'object' || schema === null) return schema;
    const name = this.names.get(schema);
    return name ? { $ref: `#/components/schemas/${name}` } : this.inner(schema);
  }

  /** The `components.schemas` object, each entry with the named schemas inside it referenced. */
  emit(): Record<string, unknown> {
    return Object.fromEntries(Object.entries(this.schemas).map(([name, s]) => [name, this.inner(s)]));
  }

  private inner(schema: object): Json {
    return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, this.ref(v)]));
  }
}

/** Names the resources (from single-record responses) and request bodies of the operations. */
function nameSchemas(ops: readonly Operation[]): SchemaRegistry {
  const registry = new SchemaRegistry();
  for (const op of ops) {
    const resource = pascal(
      op.operationId.replace(/^(get|create|update|delete|list)/, '').replace(/BySlug$/, ''),
    );
    for (const [status, spec] of Object.entries(op.responses)) {
      if (Number(status) < 300 && spec.schema && !isListEnvelope(spec.schema as Schema)) {
        // A schema with a title is named by it (a second success answer, not the resource itself).
        const { title } = spec.schema as Schema;
        const name = typeof title === 'string' ? title : resource || pascal(op.operationId);
        registry.add(spec.schema, name, `${pascal(op.operationId)}Response`);
      }
    }
    if (op.body) registry.add(op.body, `${pascal(op.operationId)}Body`);
  }
  return registry;
}

function parameters(op: Operation, registry: SchemaRegistry): Json[] {
  const out: Json[] = [];
  const add = (where: 'path' | 'query', source: Schema | undefined) => {
    const required = new Set((source?.required ?? []) as string[]);
    for (const [name, schema] of Object.entries((source?.properties ?? {}) as Record<string, Schema>)) {
      out.push({
        name,
        in: where,
        required: where === 'path' || required.has(name),
        ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
        schema: registry.ref(schema),
        ...(where === 'query' && isArraySchema(schema) ? { style: 'form', explode: false } : {}),
      });
    }
  };
  add('path', op.pathParams);
  add('query', op.query);
  for (const h of REQUEST_HEADERS)
    if (h.status in op.responses)
      out.push({ name: h.name, in: 'header', required: false, description: h.description, schema: h.schema });
  return out;
}

function response(status: number, spec: ResponseSpec, registry: SchemaRegistry): Json {
  const headers: Json = {
    'X-Cal-API-Version': headerRef('X-Cal-API-Version'),
    'X-Cal-API-Root': headerRef('X-Cal-API-Root'),
  };
  if (isListEnvelope(spec.schema as Schema | undefined))
    for (const h of ['X-Cal-Total', 'X-Cal-TotalPages', 'Link']) headers[h] = headerRef(h);
  if (status === 201) headers.Location = headerRef('Location');
  if (status === 201) headers['Idempotent-Replayed'] = headerRef('Idempotent-Replayed');
  // JSON successes and their 304s carry an ETag (a calendar's own ETag header replaces it below).
  if ((status < 300 && !spec.contentType) || status === 304) headers.ETag = headerRef('ETag');
  if (status === 503 || status === 429) headers['Retry-After'] = headerRef('Retry-After');
  if (status === 409)
    headers['Retry-After'] = header(
      'Seconds to wait before retrying, when a request with the same Idempotency-Key is in progress.',
      integer,
      false,
    );
  if (status === 405) headers.Allow = headerRef('Allow');
  for (const [name, description] of Object.entries(spec.headers ?? {}))
    headers[name] = header(description, string);
  for (const [name, description] of Object.entries(spec.optionalHeaders ?? {}))
    headers[name] = header(description, string, false);
  const schema = spec.schema ?? (status >= 400 ? errorEnvelope : undefined);
  const mediaType = (spec.schema && spec.contentType) || 'application/json';
  const content: Json = schema ? { [mediaType]: { schema: registry.ref(schema) } } : {};
  for (const [type, other] of Object.entries(spec.alternatives ?? {}))
    content[type] = { schema: registry.ref(other) };
  return {
    description: spec.description,
    headers,
    ...(Object.keys(content).length > 0 ? { content } : {}),
  };
}

/**
 * Error responses in the plain error envelope are the same across operations: each is emitted once in
 * `components.responses` (`Error404`) and referenced; one that differs from the first stays inline.
 */
function sharedResponse(status: number, spec: ResponseSpec, built: Json, shared: Record<string, Json>): Json {
  if (status < 400 || spec.schema) return built;
  const name = `Error${status}`;
  shared[name] ??= built;
  return JSON.stringify(shared[name]) === JSON.stringify(built)
    ? { $ref: `#/components/responses/${name}` }
    : built;
}

function operationObject(
  op: Operation,
  operationId: string,
  registry: SchemaRegistry,
  shared: Record<string, Json>,
): OpenApiOperation {
  const params = parameters(op, registry);
  const body = op.body && registry.ref(op.body);
  const responses = Object.fromEntries(
    Object.entries(op.responses).map(([key, spec]) => {
      const status = Number(key);
      return [key, sharedResponse(status, spec, response(status, spec, registry), shared)];
    }),
  );
  return {
    operationId,
    summary: op.summary,
    description:
      op.access === 'public'
        ? 'Public; a bearer token, when sent, must be valid and may widen what the caller sees.'
        : `Requires a bearer token of a user with the ${op.access} role or a higher one.`,
    // The folder of the handler: `system`, `events`, `categories`, ...
    tags: [op.handler.split('/').at(-2) ?? 'api'],
    security: op.access === 'public' ? [{}, { bearerAuth: [] }] : [{ bearerAuth: [] }],
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(body
      ? {
          requestBody: {
            required: ((op.body?.required ?? []) as string[]).length > 0,
            content: Object.fromEntries([
              ...BODY_TYPES.map((t) => [t, { schema: body }]),
              ...Object.keys(op.textBody ?? {}).map((t) => [t, { schema: { type: 'string' } }]),
            ]),
          },
        }
      : {}),
    responses,
  };
}

/**
 * @param serverUrl the API root as the caller sees it; a trailing slash is added when missing.
 * @param ops       the operations to document; the registry by default.
 */
export function buildOpenApi(serverUrl: string, ops: readonly Operation[] = allOperations): OpenApiDocument {
  const registry = nameSchemas(ops);
  const responses: Record<string, Json> = {};
  const paths: OpenApiDocument['paths'] = {};
  const server = serverUrl.endsWith('/') ? serverUrl : `${serverUrl}/`;
  for (const op of ops) {
    const other = op.namespace !== undefined && op.namespace !== NAMESPACE;
    // Another namespace's root (its index) would take this one's `/`: its own index describes it.
    if (other && !op.path) continue;
    const item = paths[op.path || '/'] ?? {};
    paths[op.path || '/'] = item;
    const servers = other
      ? [{ url: server.replace(new RegExp(`${NAMESPACE}/$`), () => `${op.namespace}/`) }]
      : undefined;
    op.methods.forEach((method, i) => {
      const m = method.toLowerCase() as Lowercase<HttpMethod>;
      const o = operationObject(op, i === 0 ? op.operationId : `${op.operationId}_${m}`, registry, responses);
      item[m] = servers ? { ...o, servers } : o;
    });
  }
  return {
    openapi: '3.1.0',
    info: { ...INFO },
    servers: [{ url: server }],
    paths,
    components: {
      schemas: registry.emit(),
      responses,
      headers: HEADERS,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            "A JWT from the deployment's issuer; the role comes from its `cal:role` or `cognito:groups` claim.",
        },
      },
    },
  };
}
