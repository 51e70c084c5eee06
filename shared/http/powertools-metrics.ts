import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { config, SERVICE_NAME } from '../config';
import type { Counter } from './counters';

let metrics: Metrics | undefined;

/**
 * Writes each counter as one embedded-metric-format line on stdout. Reached through `await import()`
 * from metrics.ts, on the first answer that counts something (a chunk of its own in the function
 * bundles), except in functions whose every success counts. Metrics is built on the first counter
 * published, not when this module loads.
 */
export function publishCounters(counters: Counter[]): void {
  metrics ??= new Metrics({ namespace: config.metricsNamespace, serviceName: SERVICE_NAME });
  for (const [name, dimensions] of counters) {
    // One EMF line per counter: dimensions differ between counters.
    const single = metrics.singleMetric();
    for (const [key, value] of Object.entries(dimensions)) single.addDimension(key, value);
    single.addMetric(name, MetricUnit.Count, 1);
  }
}
