import { NAMESPACE, NAMESPACES } from '../config';
import { changeOps } from './changes';
import { eventOps } from './events';
import { importOps } from './imports';
import { organizerOps } from './organizers';
import { systemOps } from './system';
import { categoryOps, tagOps } from './terms';
import type { Operation } from './types';
import { venueOps } from './venues';
import { webhookOps } from './webhooks';
import { attendeeOps, ticketOps, ticketSystemOps } from './tickets';

/**
 * Every operation of the API, in the order routes are listed by the namespace index and /doc.
 * Adding a resource means adding its operations here; infra, the gateway and docs follow.
 */
export const operations: readonly Operation[] = [
  systemOps.index,
  systemOps.doc,
  ...Object.values(eventOps),
  ...Object.values(venueOps),
  ...Object.values(organizerOps),
  ...Object.values(categoryOps),
  ...Object.values(tagOps),
  ...Object.values(changeOps),
  ...Object.values(webhookOps),
  ...Object.values(importOps),
  ticketSystemOps.index,
  ...Object.values(ticketOps),
  ...Object.values(attendeeOps),
];

/** The namespace an operation is below. */
export const namespaceOf = (op: Pick<Operation, 'namespace'>): string => op.namespace ?? NAMESPACE;

/** The operation's route from the host's root: `/cal/tickets/v1/tickets/{id}` (the gateway's route key). */
export const routeOf = (op: Pick<Operation, 'namespace' | 'path'>): string => `/${namespaceOf(op)}${op.path}`;

/** A request path split into its namespace and the path below it; undefined outside every namespace. */
export function splitNamespace(path: string): { namespace: string; below: string } | undefined {
  for (const namespace of NAMESPACES) {
    const prefix = `/${namespace}`;
    if (path === prefix || path.startsWith(`${prefix}/`))
      return { namespace, below: path.slice(prefix.length) };
  }
  return undefined;
}

/** Route template (`/categories/{id}`) → regular expression over the path below the namespace. */
export function pathPattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((seg) =>
      seg === '{id}'
        ? '(?<id>\\d+)'
        : /^\{\w+\}$/.test(seg)
          ? `(?<${seg.slice(1, -1)}>[^/]+)`
          : seg.replace(/[.*+?^$()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${source}$`);
}

export interface RouteMatch {
  operation: Operation;
  pathParameters: Record<string, string>;
}

/** Finds the operation for a method and path; `allow` lists the methods the path takes when none matches. */
export function matchRoute(
  method: string,
  path: string,
  namespace: string = NAMESPACE,
): { match?: RouteMatch; allow: string[] } {
  const allow: string[] = [];
  for (const operation of operations) {
    if (namespaceOf(operation) !== namespace) continue;
    const m = pathPattern(operation.path).exec(path);
    if (!m) continue;
    if ((operation.methods as readonly string[]).includes(method))
      return { match: { operation, pathParameters: { ...m.groups } }, allow };
    allow.push(...operation.methods);
  }
  return { allow };
}
