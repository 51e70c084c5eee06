import { Logger } from '@aws-lambda-powertools/logger';
import { SERVICE_NAME } from '../config';

/**
 * Powertools' Logger, reached only through `await import()` from logger.ts: the package is a chunk
 * of its own in the function bundles, loaded on the first line written, not at every cold start.
 * `keys` are those appended before then.
 */
export function powertoolsLogger(keys: Parameters<Logger['appendKeys']>[0]): Logger {
  const logger = new Logger({
    serviceName: SERVICE_NAME,
    logLevel: (process.env.LOG_LEVEL as 'INFO' | undefined) ?? (process.env.VITEST ? 'SILENT' : 'INFO'),
  });
  logger.appendKeys(keys);
  return logger;
}
