import type * as Auth from './auth';

/**
 * Modules a function's build puts into its start because every request of it loads them
 * (infra/bundle/build-options.ts): bundled-auth.ts sets the token verifier here, and lazy-parts.ts
 * takes it from here. Elsewhere lazy-parts.ts loads it on demand.
 */
export const bundled: { auth?: typeof Auth } = {};
