import { Logger } from '@aws-lambda-powertools/logger';

/** One structured JSON logger for every function; the middleware adds the request id to each line. */
export const logger = new Logger({
  serviceName: 'cal-events',
  logLevel: (process.env.LOG_LEVEL as 'INFO' | undefined) ?? (process.env.VITEST ? 'SILENT' : 'INFO'),
});
