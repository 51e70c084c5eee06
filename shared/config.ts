/**
 * Constants every layer shares, and the deployment's settings read once from the environment.
 * The CDK stack sets every setting of a deployed function; the local stack (`npm start`, the tests)
 * sets its own. A deployed function that lacks one fails at cold start with a message naming it,
 * instead of serving with a silent default.
 */
export const NAMESPACE = 'cal/events/v1';
export const NAMESPACE_PATH = `/${NAMESPACE}`;
/** Tickets and RSVP (docs/tickets.md), after the reference's companion plugin's `tribe/tickets/v1`. */
export const TICKETS_NAMESPACE = 'cal/tickets/v1';
/** Every namespace the API serves; an operation names its own (`Operation.namespace`), NAMESPACE when it does not. */
export const NAMESPACES = [NAMESPACE, TICKETS_NAMESPACE] as const;
export type Namespace = (typeof NAMESPACES)[number];
export const SERVICE_NAME = 'cal-events';

/**
 * How long a browser keeps a preflight's answer (the gateway's CORS and the `$default` function's
 * answer both say it): an hour, instead of asking again every few seconds, each a function invocation.
 */
export const CORS_MAX_AGE_SECONDS = 3600;

/** Headers browsers may read from cross-origin responses (the gateway and the local stack send them). */
export const CORS_EXPOSE_HEADERS = [
  'X-Cal-Total',
  'X-Cal-TotalPages',
  'X-Cal-API-Version',
  'X-Cal-API-Root',
  'Link',
  'Location',
  'Allow',
  'Retry-After',
  'ETag',
  'Last-Modified',
  'Idempotent-Replayed',
  'X-Cal-Series-Written',
  'X-Cal-Series-Pending',
] as const;
/** Request headers browsers may send cross-origin: conditional requests and idempotent creates included. */
export const CORS_ALLOW_HEADERS = [
  'Authorization',
  'Content-Type',
  'If-Match',
  'If-None-Match',
  'If-Modified-Since',
  'Idempotency-Key',
] as const;

/** The `$default` route's module: 404 / 405 for paths and methods no operation takes. */
export const NO_ROUTE_HANDLER = 'functions/system/no-route';

/** The deployed webhook engine's delivery queue (infra/webhook-engine.ts sets it on its functions). */
export const WEBHOOK_QUEUE_URL_ENV = 'WEBHOOK_QUEUE_URL';

const inLambda = () => process.env.AWS_LAMBDA_FUNCTION_NAME !== undefined;

/**
 * A setting from the environment. In Lambda a missing one is a configuration error and throws at
 * cold start; elsewhere `localDefault` applies (without one, it throws there too).
 */
export function requireEnv(name: string, localDefault?: string): string {
  const value = process.env[name];
  if (value !== undefined && value !== '') return value;
  if (inLambda() || localDefault === undefined)
    throw new Error(`Missing setting ${name}: the deployment must set it (see infra/stack.ts).`);
  return localDefault;
}

const optionalEnv = (name: string) => process.env[name] || undefined;

function positive(name: string, localDefault: string): number {
  const n = Number(requireEnv(name, localDefault));
  if (!Number.isInteger(n) || n < 1) throw new Error(`Setting ${name} must be a positive integer.`);
  return n;
}

export const config = {
  tableName: requireEnv('TABLE_NAME', 'cal-events'),
  dynamoEndpoint: optionalEnv('DYNAMODB_ENDPOINT'),
  siteUrl: requireEnv('SITE_URL', 'http://localhost:3000').replace(/\/+$/, ''),
  siteTimezone: requireEnv('SITE_TIMEZONE', 'UTC'),
  maxPerPage: positive('MAX_PER_PAGE', '50'),
  maxBodyBytes: 1024 * 1024,
  /** CloudWatch namespace of the business counters (shared/http/metrics.ts). */
  metricsNamespace: requireEnv('POWERTOOLS_METRICS_NAMESPACE', 'CalEvents'),
  /** Public base of the API (scheme + host + stage prefix) when it cannot be read from the request. */
  apiBaseUrl: optionalEnv('API_BASE_URL')?.replace(/\/+$/, ''),
  /**
   * How far ahead a series without an end is written, in months (docs/recurrence.md); the extend job
   * moves it on every day. Read by series writes only.
   */
  get seriesHorizonMonths(): number {
    return positive('SERIES_HORIZON_MONTHS', '24');
  },
  /** Most events an iCalendar feed carries; read when a feed is built, so only the feed's function needs it. */
  get icalMaxEvents(): number {
    return positive('ICAL_MAX_EVENTS', '2000');
  },
  /**
   * Seconds the change feed holds back new entries: longer than a write can take between taking its
   * log position and committing (the function timeout), so no cursor passes a change still landing.
   */
  get changesSettleSeconds(): number {
    const n = Number(requireEnv('CHANGES_SETTLE_SECONDS', '2'));
    if (!Number.isInteger(n) || n < 0)
      throw new Error('Setting CHANGES_SETTLE_SECONDS must be a whole number of seconds (0 or more).');
    return n;
  },
  /**
   * Outbound requests (webhooks) may reach loopback and plain http: the local stack sets
   * CAL_OUTBOUND_LOCAL=1; never in Lambda, whatever the environment says. Read at each use (tests flip it).
   */
  get outboundLocal(): boolean {
    return !inLambda() && process.env.CAL_OUTBOUND_LOCAL === '1';
  },
  /** Seconds before each webhook attempt (CAL_WEBHOOK_RETRY_SCHEDULE, comma-separated; tests shorten it). */
  get webhookRetrySchedule(): number[] | undefined {
    const raw = optionalEnv('CAL_WEBHOOK_RETRY_SCHEDULE');
    if (raw === undefined) return undefined;
    const list = raw.split(',').map(Number);
    if (!list.every((n) => Number.isFinite(n) && n >= 0))
      throw new Error('Setting CAL_WEBHOOK_RETRY_SCHEDULE must be seconds separated by commas (0,5,300).');
    return list;
  },
  /** The deployed webhook engine's delivery queue; the engine's functions refuse to start without it. */
  get webhookQueueUrl(): string {
    const url = optionalEnv(WEBHOOK_QUEUE_URL_ENV);
    if (!url) throw new Error(`Setting ${WEBHOOK_QUEUE_URL_ENV} (the delivery queue's URL) is missing.`);
    return url;
  },
  /**
   * The sender of attendees' e-mails (docs/tickets.md): an address, or `Name <address>`; deployed, an
   * identity verified in Amazon SES (CDK context `mailFrom`). Read when a mail is sent.
   */
  get mailFrom(): string {
    return requireEnv('MAIL_FROM', 'Calendar <no-reply@localhost>');
  },
  /** How mails leave: `outbox` (files, the local stack) or `ses` (deployed). Read when a mail is sent. */
  get mailTransport(): 'outbox' | 'ses' {
    const t = requireEnv('MAIL_TRANSPORT', 'outbox');
    if (t !== 'outbox' && t !== 'ses') throw new Error('Setting MAIL_TRANSPORT must be outbox or ses.');
    return t;
  },
  /** The local outbox's folder (`.eml` files, listed at /dev/outbox); read at each use (tests set their own). */
  get outboxDir(): string {
    return optionalEnv('CAL_OUTBOX_DIR') ?? `${optionalEnv('CAL_DATA_DIR') ?? '.data'}/outbox`;
  },
  /**
   * Anonymous registrations (POST /attendees without a token, docs/tickets.md) allowed per e-mail
   * address and per client IP in each fixed window of `windowSeconds`; 0 turns a limit off. Deployed,
   * the CDK context sets them (5 and 30 an hour by default). Read at each registration.
   */
  get registrationLimits(): { perEmail: number; perIp: number; windowSeconds: number } {
    const whole = (name: string, fallback: string, min: number) => {
      const n = Number(requireEnv(name, fallback));
      if (!Number.isInteger(n) || n < min)
        throw new Error(`Setting ${name} must be a whole number of at least ${min}.`);
      return n;
    };
    return {
      perEmail: whole('REGISTRATION_LIMIT_PER_EMAIL', '5', 0),
      perIp: whole('REGISTRATION_LIMIT_PER_IP', '30', 0),
      windowSeconds: whole('REGISTRATION_LIMIT_WINDOW_SECONDS', '3600', 1),
    };
  },
  /** How long one webhook attempt may take, in ms (CAL_WEBHOOK_TIMEOUT_MS; 10 s). */
  get webhookTimeoutMs(): number {
    const n = Number(optionalEnv('CAL_WEBHOOK_TIMEOUT_MS') ?? 10_000);
    if (!Number.isInteger(n) || n < 1)
      throw new Error('Setting CAL_WEBHOOK_TIMEOUT_MS must be a positive integer.');
    return n;
  },
};
