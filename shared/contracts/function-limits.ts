import { operations } from '.';
import type { Operation } from './types';

/**
 * Lambda's limits of the API's functions, in one place: infra gives them to the functions
 * (infra/function-defaults.ts, infra/family.ts, infra/api.ts) and the local gateway runs each handler
 * under the same (local/gateway.ts), so a handler that outlives its time fails here as it would deployed.
 */

/** An operation's function's time unless its contract says more (Operation.timeoutSeconds). */
export const FUNCTION_TIMEOUT_SECONDS = 10;
/** Lambda's CPU share grows with memory; 512 MB keeps cold starts (module init, validators) short. */
export const FUNCTION_MEMORY_MB = 512;
/** API Gateway (HTTP API) waits at most this long for an integration, whatever the function's time. */
export const INTEGRATION_TIMEOUT_SECONDS = 30;

/** The time of an operation's function. */
export const timeoutOf = (op: Pick<Operation, 'timeoutSeconds'> | undefined): number =>
  op?.timeoutSeconds ?? FUNCTION_TIMEOUT_SECONDS;

/**
 * The `$default` function's (noRoute's) time: it forwards a slashed path (`POST /imports/`) to its
 * operation's function and waits for the answer, so it needs the longest of theirs.
 */
export const noRouteTimeoutSeconds = (): number => Math.max(...operations.map(timeoutOf));
