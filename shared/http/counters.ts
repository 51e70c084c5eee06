import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { Operation } from '../contracts/types';

/** A counter to publish: its name and its dimensions. */
export type Counter = [name: string, dimensions: Record<string, string>];

/** The `code` of an error envelope, or `unknown` when the body is not one. */
function errorCode(body: string | undefined): string {
  try {
    const code = (JSON.parse(body ?? '') as { code?: unknown }).code;
    return typeof code === 'string' ? code : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** What one answer counts for, as [metric, dimensions] pairs (metrics.ts publishes them). */
export function countersFor(
  op: Pick<Operation, 'operationId'>,
  response: APIGatewayProxyStructuredResultV2 | undefined,
): Counter[] {
  const status = response?.statusCode ?? 0;
  if (status >= 400 && status < 500) return [['ClientErrors', { code: errorCode(response?.body) }]];
  // A create answered again for its Idempotency-Key (Idempotent-Replayed) created nothing this time.
  const replayed = response?.headers?.['Idempotent-Replayed'] === 'true';
  if (op.operationId === 'createEvent' && status === 201 && !replayed) return [['EventsCreated', {}]];
  if (op.operationId.startsWith('delete') && status === 200)
    return [['Deletes', { operation: op.operationId }]];
  return [];
}
