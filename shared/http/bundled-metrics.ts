// Injected by the build of a function whose every success is counted (infra/bundle/build-options.ts).
import { bundled } from './bundled';
import * as metrics from './powertools-metrics';

bundled.metrics = metrics;
