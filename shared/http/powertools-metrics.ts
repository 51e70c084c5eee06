import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { config, SERVICE_NAME } from '../config';

/** A counter to publish: its name and its dimensions. */
export type Counter = [name: string, dimensions: Record<string, string>];

let metrics: Metrics | undefined;

/**
 * Writes each counter as one embedded-metric-format line on stdout. Reached only through
 * `await import()` from metrics.ts, on the first answer that counts something: Powertools Metrics is a
 * chunk of its own in the function bundles, not loaded at every cold start. Metrics is built on the
 * first counter published, not when this module loads.
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
