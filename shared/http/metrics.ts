import type middy from '@middy/core';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { Operation } from '../contracts/types';
import { countersFor } from './counters';
import { publishCounters } from './emf';

/**
 * Business counters as CloudWatch embedded-metric-format lines on stdout (no API call, no latency):
 * `EventsCreated`, `Deletes` (by operation) and `ClientErrors` (by error code). Published in Lambda;
 * silent in tests and the local stack unless CAL_METRICS=1 (or POWERTOOLS_METRICS_DISABLED=false).
 */
function enabled(): boolean {
  const disabled = process.env.POWERTOOLS_METRICS_DISABLED;
  if (disabled !== undefined && disabled !== '') return !/^(1|true|yes|on)$/i.test(disabled);
  return process.env.CAL_METRICS === '1' || process.env.AWS_LAMBDA_FUNCTION_NAME !== undefined;
}

/**
 * Registered first in createHandler, so that its `after` / `onError` run last, once the error
 * middleware has turned a failure into the envelope. Counting never fails a request.
 * The lines are written before the answer is returned (Lambda may freeze the process after).
 */
export function businessMetrics(op: Pick<Operation, 'operationId'>): middy.MiddlewareObj {
  const publish = (request: middy.Request): void => {
    if (!enabled()) return;
    try {
      const counters = countersFor(op, request.response as APIGatewayProxyStructuredResultV2 | undefined);
      if (counters.length === 0) return;
      publishCounters(counters);
    } catch {
      // A metric is never worth an answer.
    }
  };
  return { after: publish, onError: publish };
}
