import { Logger } from '@aws-lambda-powertools/logger';
import { SERVICE_NAME } from '../config';

/** One structured JSON logger for every function; the middleware adds the request id to each line. */
export const logger = new Logger({
  serviceName: SERVICE_NAME,
  logLevel: (process.env.LOG_LEVEL as 'INFO' | undefined) ?? (process.env.VITEST ? 'SILENT' : 'INFO'),
});
