import type { Logger } from '@aws-lambda-powertools/logger';
import { SERVICE_NAME } from '../config';

type Keys = Parameters<Logger['appendKeys']>[0];
type Extra = { error: Error };

let powertools: Logger | undefined;
let pending: Keys = {};
/** What the logger was asked to do and has not done yet (a line waiting for the logger to load). */
let queued = 0;
let tail: Promise<void> = Promise.resolve();

/**
 * Powertools' Logger is neither imported nor built until the first line is written: importing the
 * package costs about 4 ms of every cold start, building the Logger about 3 ms (both measured), and
 * most requests log nothing. powertools-logger.ts holds the Powertools code and is
 * imported dynamically, so in the function bundles it is a chunk a cold start does not load. Keys
 * appended before the logger is built are handed to it when it is built.
 */
async function real(): Promise<Logger> {
  if (!powertools) {
    const { powertoolsLogger } = await import('./powertools-logger');
    powertools ??= powertoolsLogger(SERVICE_NAME, pending);
  }
  return powertools;
}

/** Runs `step` after whatever the logger was asked to do before, even if that failed. */
function inOrder(step: () => void | Promise<void>): Promise<void> {
  queued += 1;
  const run = tail.then(step).finally(() => (queued -= 1));
  tail = run.catch(() => undefined);
  return run;
}

function addKeys(keys: Keys): void {
  if (powertools) powertools.appendKeys(keys);
  else pending = { ...pending, ...keys };
}

/**
 * Resolves once the line is written (Lambda may freeze the process as soon as the answer is out, so
 * callers await it before answering), and never rejects: a line that cannot be written goes to
 * console.error instead, and the answer stays what it was.
 */
function write(level: 'warn' | 'error', message: string, extra: Extra): Promise<void> {
  return inOrder(async () => (await real())[level](message, extra)).catch((failure: unknown) => {
    try {
      console.error(`${level.toUpperCase()} ${message}`, extra.error, failure);
    } catch {
      // Nothing left to write to.
    }
  });
}

/** One structured JSON logger for every function; the middleware adds the request id to each line. */
export const logger = {
  appendKeys(keys: Keys): void {
    // Keys wait their turn behind lines not yet written: a line keeps the keys of when it was asked for.
    if (queued > 0) void inOrder(() => addKeys(keys));
    else addKeys(keys);
  },
  warn: (message: string, extra: Extra): Promise<void> => write('warn', message, extra),
  error: (message: string, extra: Extra): Promise<void> => write('error', message, extra),
};
