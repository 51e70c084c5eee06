import type { Role } from '../domain/roles';
import type { Shape } from '../schemas/coerce';

export type { Role };

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type ObjectSchema = {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, unknown>>;
} & Readonly<Record<string, unknown>>;

export interface ResponseSpec {
  description: string;
  /** JSON Schema of the body; the error envelope when omitted for an error status. */
  schema?: object;
  /** Media type of the body when it is not JSON (`text/calendar`); the schema then describes the text. */
  contentType?: string;
  /**
   * Other media types the same status may answer in, each with the schema of its body (a list's
   * `text/csv` export beside its JSON); the request chooses (a parameter, Accept).
   */
  alternatives?: Record<string, object>;
  /** Headers the response always carries, by name, with their description. */
  headers?: Record<string, string>;
  /** Headers the response carries when they apply (`Last-Modified` of an empty feed is absent). */
  optionalHeaders?: Record<string, string>;
}

/**
 * One operation of the API, defined once. The CDK stack, the local gateway, the namespace index,
 * /doc, request validation and the handler types are all derived from these objects.
 */
export interface Operation {
  operationId: string;
  methods: readonly HttpMethod[];
  /** Path below the namespace, OpenAPI style: '/categories/{id}'; '' is the namespace root. */
  path: string;
  /** The namespace the path is below (`cal/tickets/v1`); `cal/events/v1` when absent. */
  namespace?: string;
  /** Module that exports `handler`, relative to the repository root, without extension. */
  handler: string;
  summary: string;
  /** Who may call it: 'public', or the least role a caller must hold (a token is then required). */
  access: 'public' | Role;
  /** Read-only operations get read-only data grants. */
  readOnly: boolean;
  /**
   * The function's longest run in seconds, for an operation that may need more than the default 10
   * (FUNCTION_TIMEOUT in infra/function-defaults.ts); API Gateway answers 503 after 30 s whatever it is.
   */
  timeoutSeconds?: number;
  pathParams?: ObjectSchema;
  query?: ObjectSchema;
  body?: ObjectSchema;
  /**
   * Media types besides JSON and forms the body may be sent as, each read as text into one string field
   * of `body` (`{'text/calendar': 'calendar'}`): the body is then `{calendar: <the text>}`.
   */
  textBody?: Readonly<Record<string, string>>;
  responses: Record<number, ResponseSpec>;
}

/**
 * What a function needs of its operation at run time, generated with its validators into
 * shared/schemas/compiled/<operationId>.ts (`npm run validators`): no descriptions, no response
 * schemas, none of the other operations. Importing the contract itself would parse and build all of
 * them at every cold start.
 */
export interface RuntimeOperation {
  readonly operationId: string;
  readonly methods: readonly HttpMethod[];
  readonly access: Operation['access'];
  readonly readOnly: boolean;
  readonly shapes: { readonly params?: Shape; readonly query?: Shape; readonly body?: Shape };
  readonly textBody?: Operation['textBody'];
}
