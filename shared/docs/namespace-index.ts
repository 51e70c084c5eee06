import { NAMESPACE } from '../config';
import { operations as allOperations } from '../contracts';
import type { HttpMethod, Operation } from '../contracts/types';

/**
 * The namespace index (`GET /cal/events/v1`) in the shape WordPress gives it (reference §11.1),
 * generated from the operation contracts: one route per path, one endpoint per operation.
 */

export interface IndexArg {
  description?: string;
  type?: unknown;
  default?: unknown;
  enum?: unknown;
  items?: unknown;
  format?: unknown;
  minimum?: unknown;
  maximum?: unknown;
  required: boolean;
}

export interface IndexEndpoint {
  methods: HttpMethod[];
  args: Record<string, IndexArg>;
}

export interface IndexRoute {
  namespace: string;
  methods: HttpMethod[];
  endpoints: IndexEndpoint[];
  /** Only on routes without path parameters, as WordPress does. */
  _links?: { self: Array<{ href: string }> };
}

export interface NamespaceIndex {
  namespace: string;
  routes: Record<string, IndexRoute>;
  _links: { up: Array<{ href: string }> };
}

/** Schema keywords copied into an arg when the contract declares them (decisions §8). */
const ARG_KEYS = ['type', 'default', 'enum', 'items', 'format', 'minimum', 'maximum'] as const;

type Schema = Readonly<Record<string, unknown>>;

/** `/categories/{id}` → `/categories/(?P<id>\d+)`; any other parameter matches one path segment. */
export function routeRegex(path: string): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => `(?P<${name}>${name === 'id' ? '\\d+' : '[^/]+'})`);
}

/** An arg: its description and declared keywords, `required` last as WordPress lists it. */
function argOf(schema: Schema, required: boolean): IndexArg {
  const arg: Omit<IndexArg, 'required'> = {};
  if (typeof schema.description === 'string') arg.description = schema.description;
  for (const key of ARG_KEYS) if (schema[key] !== undefined) arg[key] = schema[key];
  return { ...arg, required };
}

/** Adds the properties of an object schema to `args`; a later source (the body) refines an earlier one. */
function addArgs(args: Record<string, IndexArg>, source: Schema | undefined, alwaysRequired = false): void {
  if (!source) return;
  const properties = (source.properties ?? {}) as Record<string, Schema>;
  const required = new Set((source.required ?? []) as string[]);
  for (const [name, schema] of Object.entries(properties)) {
    const { required: was = false, ...before } = args[name] ?? {};
    const { required: now, ...arg } = argOf(schema, alwaysRequired || required.has(name));
    args[name] = { ...before, ...arg, required: was || now };
  }
}

/** Args of one endpoint: path parameters, query parameters and body fields, merged as WordPress does. */
export function endpointArgs(op: Operation): Record<string, IndexArg> {
  const args: Record<string, IndexArg> = {};
  addArgs(args, op.pathParams, true);
  addArgs(args, op.query);
  addArgs(args, op.body);
  return args;
}

/**
 * @param root the API root as the caller sees it, without trailing slash: `https://host/cal/events/v1`.
 * @param ops  the operations to describe; the registry by default.
 */
export function buildNamespaceIndex(
  root: string,
  ops: readonly Operation[] = allOperations,
  namespace: string = NAMESPACE,
): NamespaceIndex {
  const apiRoot = root.replace(/\/+$/, '');
  const routes: Record<string, IndexRoute> = {};
  for (const op of ops) {
    if ((op.namespace ?? NAMESPACE) !== namespace) continue;
    const key = `/${namespace}${routeRegex(op.path)}`;
    const route = routes[key] ?? { namespace, methods: [], endpoints: [] };
    routes[key] = route;
    for (const m of op.methods) if (!route.methods.includes(m)) route.methods.push(m);
    route.endpoints.push({ methods: [...op.methods], args: endpointArgs(op) });
    if (!op.path.includes('{')) route._links = { self: [{ href: `${apiRoot}${op.path}` }] };
  }
  const base = apiRoot.endsWith(`/${namespace}`) ? apiRoot.slice(0, -namespace.length - 1) : apiRoot;
  return { namespace, routes, _links: { up: [{ href: `${base}/` }] } };
}
