import { Logger } from '@aws-lambda-powertools/logger';

/**
 * Powertools' Logger, reached only through `await import()` from logger.ts: the package is a chunk
 * of its own in the function bundles, loaded on the first line written, not at every cold start.
 * `keys` are those appended before then. The service's name is passed in (config.ts's SERVICE_NAME),
 * not imported: a chunk loaded on demand that imports a module of the start splits that module into a
 * file of its own, which every cold start opens (docs/cold-start.md).
 */
export function powertoolsLogger(serviceName: string, keys: Parameters<Logger['appendKeys']>[0]): Logger {
  const logger = new Logger({
    serviceName,
    logLevel: (process.env.LOG_LEVEL as 'INFO' | undefined) ?? (process.env.VITEST ? 'SILENT' : 'INFO'),
  });
  logger.appendKeys(keys);
  return logger;
}
