import type * as Auth from './auth';
import type * as PowertoolsMetrics from './powertools-metrics';

/**
 * Modules a function's build puts into its start because every request of it loads them
 * (infra/bundle/build-options.ts): bundled-auth.ts and bundled-metrics.ts set them here, and
 * lazy-parts.ts takes them from here. Elsewhere lazy-parts.ts loads them on demand.
 */
export const bundled: { auth?: typeof Auth; metrics?: typeof PowertoolsMetrics } = {};
