import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { handler as getDoc } from '../../functions/system/get-doc';
import { handler as getIndex } from '../../functions/system/get-index';
import { operations } from '../../shared/contracts';
import type { Operation } from '../../shared/contracts/types';
import { buildNamespaceIndex, routeRegex } from '../../shared/docs/namespace-index';
import { buildOpenApi, type OpenApiOperation } from '../../shared/docs/openapi';
import { responseValidatorFor, templateFor } from '../../shared/docs/response-check';

const ROOT = 'https://api.test/cal/events/v1';
const doc = buildOpenApi(`${ROOT}/`);
const index = buildNamespaceIndex(ROOT);
const check = responseValidatorFor(doc);

type Content<S = unknown> = Record<string, { schema: S }>;

const docPath = (op: Operation) => op.path || '/';
/** The events namespace's operations: its index lists them, and only them. */
const ofEvents = operations.filter((op) => !op.namespace || op.namespace === 'cal/events/v1');
/** /doc holds every operation but another namespace's index (that namespace's own index describes it). */
const documented = operations.filter((op) => ofEvents.includes(op) || op.path !== '');
const routeKey = (op: Operation) => `/cal/events/v1${routeRegex(op.path)}`;
const opAt = (path: string, method: string) =>
  doc.paths[path]?.[method as 'get'] as OpenApiOperation | undefined;

/** A synthetic operation: `cost` declares no type, `ids` is a query array, `name` a required body field. */
const synthetic: Operation = {
  operationId: 'updateThing',
  methods: ['POST', 'PATCH'],
  path: '/things/by-slug/{slug}',
  handler: 'functions/things/update-thing',
  summary: 'Update a thing',
  access: 'editor',
  readOnly: false,
  pathParams: {
    type: 'object',
    properties: { slug: { type: 'string', description: 'Slug.' } },
    required: ['slug'],
  },
  query: {
    type: 'object',
    properties: { ids: { type: 'array', items: { type: 'integer' }, description: 'IDs.' } },
  },
  body: {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 1, description: 'Name.' },
      cost: { description: 'Cost.', anyOf: [{ type: 'string' }, { type: 'number' }] },
      slug: { type: 'string', format: 'uri', description: 'New slug.' },
      size: { type: 'integer', minimum: 1, default: 3, enum: [1, 3, 5], description: 'Size.' },
    },
    required: ['name'],
  },
  responses: { 200: { description: 'OK.', schema: { type: 'object', properties: {} } } },
};

describe('OpenAPI document', () => {
  it('validates as OpenAPI 3.1', async () => {
    const result = await new Validator().validate(doc as unknown as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'Event Calendar REST API', version: '1.0.0' });
    expect(doc.info.description).toBeTruthy();
  });

  it('is rejected by the validator when broken (the check is not vacuous)', async () => {
    const { info: _info, ...broken } = doc;
    expect((await new Validator().validate(broken as Record<string, unknown>)).valid).toBe(false);
  });

  it('holds only valid JSON Schema 2020-12 schemas, whose refs resolve (the validator does not look inside)', () => {
    const ajv = new Ajv2020({ strict: false });
    const schemas: unknown[] = Object.values(doc.components.schemas);
    for (const item of Object.values(doc.paths))
      for (const o of Object.values(item)) {
        for (const p of o!.parameters ?? []) schemas.push(p.schema);
        for (const c of Object.values((o!.requestBody?.content ?? {}) as Record<string, { schema: unknown }>))
          schemas.push(c.schema);
      }
    for (const r of Object.values(doc.components.responses))
      schemas.push((r.content as Content | undefined)?.['application/json']?.schema);
    for (const schema of schemas)
      expect(ajv.validateSchema(schema as object), JSON.stringify(ajv.errors)).toBe(true);
    // Compiling every response schema fails loudly on a dangling $ref.
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, o] of Object.entries(item))
        for (const status of Object.keys(o!.responses))
          expect(() => check(method, path, Number(status), {})).not.toThrow();
  });

  it('has the API root with a trailing slash as its server', () => {
    expect(doc.servers[0]!.url).toBe(`${ROOT}/`);
    expect(buildOpenApi(ROOT).servers[0]!.url).toBe(`${ROOT}/`);
  });

  it('documents every operation and method, the root path and /doc included, with unique ids', () => {
    expect(opAt('/', 'get')?.operationId).toBe('getNamespaceIndex');
    expect(opAt('/doc', 'get')?.operationId).toBe('getDocumentation');
    const ids: string[] = [];
    for (const op of documented) {
      op.methods.forEach((method, i) => {
        const o = opAt(docPath(op), method.toLowerCase());
        expect(o, `${method} ${docPath(op)}`).toBeDefined();
        expect(o!.operationId).toBe(i === 0 ? op.operationId : `${op.operationId}_${method.toLowerCase()}`);
        expect(o!.summary).toBe(op.summary);
        // Every status of the contract, and no other.
        expect(Object.keys(o!.responses).sort()).toEqual(Object.keys(op.responses).sort());
        ids.push(o!.operationId);
      });
    }
    expect(new Set(ids).size).toBe(ids.length);
    const methodsInDoc = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(methodsInDoc).toBe(documented.reduce((n, op) => n + op.methods.length, 0));
  });

  it('keeps operations sharing a path under one path item', () => {
    expect(Object.keys(doc.paths['/categories/{id}']!).sort()).toEqual([
      'delete',
      'get',
      'patch',
      'post',
      'put',
    ]);
    expect(opAt('/categories/{id}', 'put')!.operationId).toBe('updateCategory_put');
    expect(opAt('/categories/{id}', 'patch')!.operationId).toBe('updateCategory_patch');
  });

  it('describes parameters, request bodies, error envelopes and list envelopes', () => {
    const update = opAt('/categories/{id}', 'post')!;
    expect(update.parameters).toContainEqual(
      expect.objectContaining({ name: 'id', in: 'path', required: true }),
    );
    const body = update.requestBody as { content: Record<string, { schema: unknown }> };
    expect(Object.keys(body.content)).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    expect(body.content['application/json']!.schema).toEqual(
      body.content['application/x-www-form-urlencoded']!.schema,
    );
    expect(update.responses['404']).toEqual({ $ref: '#/components/responses/Error404' });
    expect(doc.components.responses.Error404).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    });
    expect(doc.components.responses.Error503!.headers).toHaveProperty('Retry-After');
    expect(doc.components.schemas.Error).toMatchObject({ required: ['code', 'message', 'data'] });

    const list = opAt('/categories', 'get')!;
    expect(list.parameters).toContainEqual(
      expect.objectContaining({ name: 'include', in: 'query', style: 'form', explode: false }),
    );
    const ok = list.responses['200'] as {
      headers: Record<string, unknown>;
      content: Content<{ type: string; properties: Record<string, unknown>; required: string[] }>;
    };
    const envelope = ok.content['application/json']!.schema;
    expect(envelope.type).toBe('object');
    expect(envelope.properties.categories).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/Category' },
    });
    expect(envelope.required).toEqual(expect.arrayContaining(['categories', 'total', 'total_pages']));
    expect(Object.keys(ok.headers)).toEqual(
      expect.arrayContaining(['X-Cal-Total', 'X-Cal-TotalPages', 'Link']),
    );

    const created = opAt('/categories', 'post')!.responses['201'] as { headers: Record<string, unknown> };
    expect(created.headers.Location).toEqual({ $ref: '#/components/headers/Location' });
    expect(opAt('/events', 'get')!.responses['200']).toMatchObject({
      content: {
        'application/json': {
          schema: { properties: { events: { items: { $ref: '#/components/schemas/Event' } } } },
        },
      },
    });
  });

  it('documents conditional requests and safe retries: request headers, ETag, 304, 412, 409, 422', () => {
    const param = (o: OpenApiOperation, name: string) =>
      o.parameters?.find((p) => p.name === name && p.in === 'header');
    const get = opAt('/events/{id}', 'get')!;
    expect(param(get, 'If-None-Match')).toMatchObject({ required: false });
    expect(get.responses['304']).toMatchObject({ headers: { ETag: { $ref: '#/components/headers/ETag' } } });
    expect(get.responses['304']).not.toHaveProperty('content');
    expect((get.responses['200'] as { headers: object }).headers).toHaveProperty('ETag');
    expect(param(opAt('/tags', 'get')!, 'If-None-Match')).toBeDefined();

    for (const [path, method] of [
      ['/events/{id}', 'put'],
      ['/venues/by-slug/{slug}', 'patch'],
      ['/tags/{id}', 'delete'],
    ] as const) {
      const o = opAt(path, method)!;
      expect(param(o, 'If-Match'), `${method} ${path}`).toMatchObject({ required: false });
      expect(o.responses['412'], `${method} ${path}`).toEqual({ $ref: '#/components/responses/Error412' });
      expect(param(o, 'Idempotency-Key')).toBeUndefined();
    }
    expect(String(doc.components.responses.Error412!.description)).toContain('rest_precondition_failed');

    for (const path of ['/events', '/venues', '/organizers', '/categories', '/tags']) {
      const create = opAt(path, 'post')!;
      expect(param(create, 'Idempotency-Key'), path).toMatchObject({
        required: false,
        schema: { type: 'string', minLength: 1, maxLength: 255 },
      });
      expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '409', '410', '422']));
      expect((create.responses['201'] as { headers: object }).headers).toHaveProperty('Idempotent-Replayed');
      expect(param(create, 'If-Match')).toBeUndefined();
    }
    expect(doc.components.responses.Error409!.headers).toHaveProperty('Retry-After');
    expect(String(doc.components.responses.Error422!.description)).toContain('rest_idempotency_key_reused');
    expect(doc.info.description).toMatch(/If-None-Match[\s\S]*If-Match[\s\S]*Idempotency-Key/);
  });

  it('documents new operations given to the builder', () => {
    const d = buildOpenApi(ROOT, [synthetic]);
    const post = d.paths['/things/by-slug/{slug}']!.post!;
    expect(d.paths['/things/by-slug/{slug}']!.patch!.operationId).toBe('updateThing_patch');
    expect(post.parameters).toEqual([
      expect.objectContaining({ name: 'slug', in: 'path', required: true }),
      expect.objectContaining({ name: 'ids', in: 'query', required: false, style: 'form', explode: false }),
    ]);
    expect(post.requestBody).toMatchObject({ required: true });
  });
});

describe('namespace index', () => {
  it('lists every route with its methods, one endpoint per operation, and its args', () => {
    expect(index.namespace).toBe('cal/events/v1');
    expect(index._links).toEqual({ up: [{ href: 'https://api.test/' }] });
    const keys = [...new Set(ofEvents.map(routeKey))];
    expect(Object.keys(index.routes)).toEqual(keys);
    for (const op of ofEvents) {
      const route = index.routes[routeKey(op)]!;
      expect(route.namespace).toBe('cal/events/v1');
      expect(route.methods).toEqual(expect.arrayContaining([...op.methods]));
      const endpoint = route.endpoints.find((e) => e.methods.join() === op.methods.join());
      expect(endpoint, `${op.operationId}`).toBeDefined();
      const names = [op.pathParams, op.query, op.body].flatMap((s) => Object.keys(s?.properties ?? {}));
      expect(Object.keys(endpoint!.args).sort()).toEqual([...new Set(names)].sort());
      for (const [name, arg] of Object.entries(endpoint!.args)) {
        expect(typeof arg.required, `${op.operationId} ${name}`).toBe('boolean');
        expect(arg.description, `${op.operationId} ${name}`).toBeTruthy();
      }
    }
    const idRoute = '/cal/events/v1/categories/(?P<id>\\d+)';
    expect(index.routes[idRoute]!.methods).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
    expect(index.routes[idRoute]!._links).toBeUndefined();
    expect(index.routes['/cal/events/v1/events/by-slug/(?P<slug>[^/]+)']).toBeDefined();
    expect(index.routes['/cal/events/v1/categories']!._links).toEqual({
      self: [{ href: `${ROOT}/categories` }],
    });
    expect(index.routes['/cal/events/v1']!._links).toEqual({ self: [{ href: ROOT }] });
  });

  it('marks required args and copies declared keywords', () => {
    const create = index.routes['/cal/events/v1/categories']!.endpoints[1]!;
    expect(create.methods).toEqual(['POST']);
    expect(create.args.name).toMatchObject({ type: 'string', required: true });
    expect(create.args.parent).toMatchObject({ type: 'integer', minimum: 0, required: false });
    const get = index.routes['/cal/events/v1/categories/(?P<id>\\d+)']!.endpoints[0]!;
    expect(get.args.id).toMatchObject({ type: 'integer', required: true });
    const list = index.routes['/cal/events/v1/categories']!.endpoints[0]!.args;
    expect(list.page).toMatchObject({ type: 'integer', default: 1, required: false });
    expect(list.include).toMatchObject({ type: 'array', items: expect.any(Object), required: false });
    expect(index.routes['/cal/events/v1']!.endpoints[0]!.args.namespace).toMatchObject({
      default: 'cal/events/v1',
    });
    const event = index.routes['/cal/events/v1/events']!.endpoints[1]!.args;
    expect(event.cost).not.toHaveProperty('type');
    expect(event.title).toMatchObject({ required: true });
  });

  it('declares no type for a schema-less param, and merges path, query and body args', () => {
    const i = buildNamespaceIndex(`${ROOT}/`, [synthetic]);
    const route = i.routes['/cal/events/v1/things/by-slug/(?P<slug>[^/]+)']!;
    expect(route.methods).toEqual(['POST', 'PATCH']);
    expect(route._links).toBeUndefined();
    const { args } = route.endpoints[0]!;
    expect(Object.keys(args)).toEqual(['slug', 'ids', 'name', 'cost', 'size']);
    expect(args.cost).toEqual({ description: 'Cost.', required: false });
    expect(args.name).toEqual({ description: 'Name.', type: 'string', required: true });
    // The path parameter stays required; the body's description and format refine it.
    expect(args.slug).toEqual({ description: 'New slug.', type: 'string', format: 'uri', required: true });
    expect(args.ids).toEqual({
      description: 'IDs.',
      type: 'array',
      items: { type: 'integer' },
      required: false,
    });
    expect(args.size).toEqual({
      description: 'Size.',
      type: 'integer',
      default: 3,
      enum: [1, 3, 5],
      minimum: 1,
      required: false,
    });
  });
});

describe('responseValidatorFor', () => {
  const category = {
    id: 5,
    count: 0,
    description: '',
    name: 'Jazz',
    slug: 'jazz',
    taxonomy: 'tribe_events_cat',
    parent: 0,
    meta: [],
    url: 'http://calendar.test/events/category/jazz/',
    urls: { self: `${ROOT}/categories/5`, collection: `${ROOT}/categories` },
  };

  it('accepts a correct body and reports an incorrect one', () => {
    expect(check('GET', '/categories/{id}', 200, category)).toEqual([]);
    const wrong = check('GET', '/categories/{id}', 200, { ...category, id: 'five', extra: 1 });
    expect(wrong.length).toBeGreaterThanOrEqual(2);
    expect(wrong.join('\n')).toMatch(/body\/id must be integer/);
  });

  it('checks list envelopes, error envelopes and undocumented statuses', () => {
    const page = { categories: [category], rest_url: `${ROOT}/categories/`, total: 1, total_pages: 1 };
    expect(check('get', '/categories', 200, page)).toEqual([]);
    expect(check('get', '/categories', 200, [category])).not.toEqual([]);
    const error = {
      code: 'rest-category-not-found',
      message: 'Category with ID 9 does not exist.',
      data: { status: 404 },
    };
    expect(check('GET', '/categories/{id}', 404, error)).toEqual([]);
    expect(check('GET', '/categories/{id}', 404, { message: 'x' })).not.toEqual([]);
    expect(check('GET', '/categories/{id}', 418, error)).toEqual([
      'GET /categories/{id}: status 418 is not documented',
    ]);
    expect(check('GET', '/nowhere', 200, {})).toEqual(['GET /nowhere is not documented']);
  });

  it('checks required headers when given', () => {
    const page = { categories: [], rest_url: `${ROOT}/categories/`, total: 0, total_pages: 0 };
    const headers = {
      'x-cal-api-version': 'v1',
      'x-cal-api-root': `${ROOT}/`,
      'x-cal-total': '0',
      'x-cal-totalpages': '0',
      etag: '"abc"',
    };
    expect(check('GET', '/categories', 200, page, headers)).toEqual([]);
    // Version, root, total pages and (every JSON success carries one) the ETag.
    expect(check('GET', '/categories', 200, page, new Headers({ 'X-Cal-Total': '0' }))).toHaveLength(4);
  });

  it('maps request paths to templates', () => {
    expect(templateFor(doc, '')).toBe('/');
    expect(templateFor(doc, '/categories/12?page=2')).toBe('/categories/{id}');
    expect(templateFor(doc, '/events/by-slug/a%20b/')).toBe('/events/by-slug/{slug}');
    expect(templateFor(doc, `${ROOT}/doc`, `${ROOT}/`)).toBe('/doc');
    expect(templateFor(doc, '/categories/abc')).toBeUndefined();
  });
});

describe('handlers', () => {
  const invoke = async (fn: unknown, rawPath: string, rawQueryString = '') => {
    const event = {
      rawPath,
      rawQueryString,
      headers: { host: 'api.test', 'x-forwarded-proto': 'https' },
      requestContext: { requestId: 'r-1', domainName: 'api.test', http: { method: 'GET' } },
    } as unknown as APIGatewayProxyEventV2;
    const run = fn as (e: APIGatewayProxyEventV2, c: Context) => Promise<APIGatewayProxyStructuredResultV2>;
    const res = await run(event, { awsRequestId: 'r-1' } as Context);
    return { status: res.statusCode!, headers: res.headers!, body: JSON.parse(res.body!) };
  };

  it('serves the namespace index, and answers 404 for another namespace', async () => {
    const res = await invoke(getIndex, '/cal/events/v1');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(index)));
    expect(check('GET', '/', 200, res.body, res.headers as Record<string, string>)).toEqual([]);
    const other = await invoke(getIndex, '/cal/events/v1', 'namespace=wp%2Fv2');
    expect(other.status).toBe(404);
    expect(other.body.code).toBe('rest_invalid_namespace');
  });

  it('serves the document, which describes its own response', async () => {
    const res = await invoke(getDoc, '/cal/events/v1/doc');
    expect(res.status).toBe(200);
    expect(res.body.servers).toEqual([{ url: `${ROOT}/` }]);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(doc)));
    expect(
      responseValidatorFor(res.body)('GET', '/doc', 200, res.body, res.headers as Record<string, string>),
    ).toEqual([]);
  });
});
