import { Logger } from '@aws-lambda-powertools/logger';
import { SERVICE_NAME } from '../config';

type Keys = Parameters<Logger['appendKeys']>[0];
type Extra = { error: Error };

let powertools: Logger | undefined;
let pending: Keys = {};

/**
 * Powertools' Logger is built on the first line written, not at module load: building it costs about
 * 3 ms of every cold start (measured A/B by the bench), and most requests log nothing. Keys appended
 * before then are handed to it when it is built.
 */
function real(): Logger {
  if (!powertools) {
    powertools = new Logger({
      serviceName: SERVICE_NAME,
      logLevel: (process.env.LOG_LEVEL as 'INFO' | undefined) ?? (process.env.VITEST ? 'SILENT' : 'INFO'),
    });
    powertools.appendKeys(pending);
  }
  return powertools;
}

/** One structured JSON logger for every function; the middleware adds the request id to each line. */
export const logger = {
  appendKeys(keys: Keys): void {
    if (powertools) powertools.appendKeys(keys);
    else pending = { ...pending, ...keys };
  },
  warn: (message: string, extra: Extra): void => real().warn(message, extra),
  error: (message: string, extra: Extra): void => real().error(message, extra),
};
