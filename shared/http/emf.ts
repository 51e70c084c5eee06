import { config, SERVICE_NAME } from '../config';
import type { Counter } from './counters';

/**
 * Writes each counter as one CloudWatch embedded-metric-format line on stdout, dimensioned by the
 * service and the counter's own dimensions (the shape Powertools Metrics' singleMetric writes).
 * Our counters are three fixed names with a dimension or two, so the format is all we need: the
 * library's validation and buffering cost create and delete functions about 6 ms of each cold start
 * (A/B of create-event bundles, issue 26).
 */
export function publishCounters(counters: Counter[], now = Date.now()): void {
  for (const [name, dimensions] of counters) {
    const doc = {
      _aws: {
        Timestamp: now,
        CloudWatchMetrics: [
          {
            Namespace: config.metricsNamespace,
            Dimensions: [['service', ...Object.keys(dimensions)]],
            Metrics: [{ Name: name, Unit: 'Count' }],
          },
        ],
      },
      service: SERVICE_NAME,
      ...dimensions,
      [name]: 1,
    };
    process.stdout.write(`${JSON.stringify(doc)}\n`);
  }
}
