/** Deployment settings, read once from the environment (set by the CDK stack or the local stack). */
export const config = {
  tableName: process.env.TABLE_NAME ?? 'cal-events',
  dynamoEndpoint: process.env.DYNAMODB_ENDPOINT || undefined,
  siteUrl: (process.env.SITE_URL ?? 'http://localhost:3000').replace(/\/+$/, ''),
  siteTimezone: process.env.SITE_TIMEZONE ?? 'UTC',
  maxPerPage: Number(process.env.MAX_PER_PAGE ?? 50),
  maxBodyBytes: 1024 * 1024,
  /** Public base of the API (scheme + host + stage prefix) when it cannot be read from the request. */
  apiBaseUrl: process.env.API_BASE_URL?.replace(/\/+$/, ''),
};

export const NAMESPACE = 'cal/events/v1';
