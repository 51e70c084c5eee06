import { errors, unchanged } from './responses';
import type { Operation } from './types';

const anyObject = { type: 'object' } as const;

export const systemOps = {
  index: {
    operationId: 'getNamespaceIndex',
    methods: ['GET'],
    path: '',
    handler: 'functions/system/get-index',
    summary: 'Describe the namespace: every route, its methods and arguments',
    access: 'public',
    readOnly: true,
    query: {
      type: 'object',
      properties: {
        namespace: { type: 'string', default: 'cal/events/v1', description: 'The namespace to describe.' },
        context: {
          type: 'string',
          enum: ['view'],
          default: 'view',
          description: 'Scope under which the request is made.',
        },
      },
    },
    responses: {
      200: {
        description: 'The namespace index.',
        schema: {
          type: 'object',
          properties: { namespace: { type: 'string' }, routes: anyObject, _links: anyObject },
          required: ['namespace', 'routes', '_links'],
        },
      },
      ...unchanged(),
      ...errors(400, 404),
    },
  },
  doc: {
    operationId: 'getDocumentation',
    methods: ['GET'],
    path: '/doc',
    handler: 'functions/system/get-doc',
    summary: 'The OpenAPI 3.1 document of this API',
    access: 'public',
    readOnly: true,
    responses: {
      200: {
        description: 'The OpenAPI 3.1 document, generated from the route contracts.',
        schema: {
          type: 'object',
          properties: {
            openapi: { type: 'string' },
            info: anyObject,
            servers: { type: 'array' },
            paths: anyObject,
          },
          required: ['openapi', 'info', 'servers', 'paths'],
        },
      },
      ...unchanged(),
      ...errors(),
    },
  },
} as const satisfies Record<string, Operation>;
