import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

export type StageName = 'dev' | 'prod';

export interface OidcSettings {
  issuer: string;
  jwksUrl: string;
  audience?: string;
}

/** Deployment settings, from cdk.json's `context` or `-c key=value` on the command line. */
export interface Settings {
  stage: StageName;
  /**
   * The public site's address: every `url`, `global_id` and iCalendar UID is built from it, so it must
   * not change after the first deploy. Required in prod; unset in dev, it is the API's own address
   * (never the distribution's: no function waits on the site's stack), and setting it later is a UID
   * change (docs/operations.md).
   */
  siteUrl?: string;
  /** Whether to deploy the calendar page and its CloudFront distribution (`-c site=false`: the API only). */
  site: boolean;
  siteTimezone: string;
  corsAllowOrigins: string[];
  maxPerPage: number;
  /** Most events one iCalendar feed holds. */
  icalMaxEvents: number;
  /** Seconds the change feed holds back new entries; more than a write function's timeout. */
  changesSettleSeconds: number;
  /**
   * How far ahead a recurring series without an end is written, in whole months (SERIES_HORIZON_MONTHS,
   * docs/recurrence.md); the daily extend job moves it on.
   */
  seriesHorizonMonths: number;
  /** Public base URL when the API sits behind a custom domain; handlers otherwise use the request's host. */
  apiBaseUrl?: string;
  oidc?: OidcSettings;
  /** Prefix of Cognito's hosted sign-in domain; by default `<stack name>-<account>`. */
  authDomainPrefix?: string;
  /**
   * Requests per second (steady, burst) that the stage allows on EACH route: HTTP APIs have no stage
   * total; the account's regional API Gateway quota and Lambda's concurrency cap the sum.
   */
  throttleRate: number;
  throttleBurst: number;
  logRetention: RetentionDays;
  logLevel: string;
  /** CloudWatch namespace of the business counters (EventsCreated, Deletes, ClientErrors). */
  metricsNamespace: string;
  /**
   * Most webhook delivery batches at once (the deliverer's SQS MaximumConcurrency, 2 to 1000): each
   * holds one of the account's concurrent executions, of which a new account may have 10 in all.
   */
  webhookConcurrency: number;
  /**
   * The sender of attendees' e-mails (`Name <address>` or an address): an identity verified in Amazon
   * SES. Without it the mail job cannot send, and mails wait in the outbox (docs/tickets.md).
   */
  mailFrom?: string;
  /** DynamoDB's and Cognito's deletion protection on the table and the user pool (default: prod only). */
  deletionProtection: boolean;
  /**
   * Anonymous registrations for tickets allowed per e-mail address and per client IP in each window of
   * `registrationLimitWindowSeconds` (docs/tickets.md); 0 turns a limit off.
   */
  registrationLimitPerEmail: number;
  registrationLimitPerIp: number;
  registrationLimitWindowSeconds: number;
}

/** Reads and checks the context; `-c` values arrive as strings, cdk.json values as JSON. */
export function readSettings(scope: Construct): Settings {
  const get = (key: string): unknown => scope.node.tryGetContext(key);
  const str = (key: string, fallback?: string): string | undefined => {
    const v = get(key);
    return v === undefined || v === null || v === '' ? fallback : String(v);
  };
  const num = (key: string, fallback: number): number => {
    const v = get(key);
    if (v === undefined || v === null || v === '') return fallback;
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0)
      throw new Error(`Context "${key}" must be a positive number, got ${String(v)}`);
    return n;
  };
  const bool = (key: string, fallback: boolean): boolean => {
    const v = get(key);
    if (v === undefined || v === null || v === '') return fallback;
    if (v === true || v === 'true') return true;
    if (v === false || v === 'false') return false;
    throw new Error(`Context "${key}" must be true or false, got ${String(v)}`);
  };
  const list = (key: string, fallback: string[]): string[] => {
    const v = get(key);
    if (v === undefined || v === null || v === '') return fallback;
    if (Array.isArray(v)) return v.map(String);
    const s = String(v).trim();
    return s.startsWith('[') ? (JSON.parse(s) as unknown[]).map(String) : s.split(',').map((x) => x.trim());
  };

  const stage = str('stage', 'dev');
  if (stage !== 'dev' && stage !== 'prod')
    throw new Error(`Context "stage" must be dev or prod, got ${stage}`);

  // Prod's UIDs must not move: its site's address is given, never the distribution's or the API's,
  // so that no function waits on the site's stack and a CloudFront refusal rolls back the site alone.
  const siteUrl = siteUrlOf(str('siteUrl'));
  if (stage === 'prod' && !siteUrl)
    throw new Error(
      'Context "siteUrl" is required with stage=prod: every url, global_id and iCalendar UID is built ' +
        'from it and must not change after the first deploy (-c siteUrl=https://events.example.org, ' +
        'docs/operations.md)',
    );

  const issuer = str('oidcIssuer');
  const jwksUrl = str('oidcJwksUrl');
  if (issuer && !jwksUrl) throw new Error('Context "oidcIssuer" needs "oidcJwksUrl" too');

  const retentionDays = num('logRetentionDays', stage === 'prod' ? 90 : 14);
  if (!Object.values(RetentionDays).includes(retentionDays))
    throw new Error(
      `Context "logRetentionDays" must be a CloudWatch retention (1, 3, 5, 7, 14, 30, 60, 90, ...)`,
    );

  return {
    stage,
    siteUrl,
    site: bool('site', true),
    siteTimezone: str('siteTimezone', 'UTC')!,
    corsAllowOrigins: list('corsAllowOrigins', ['*']),
    maxPerPage: num('maxPerPage', 50),
    icalMaxEvents: num('icalMaxEvents', 2000),
    changesSettleSeconds: num('changesSettleSeconds', 15),
    seriesHorizonMonths: wholeMonths(num('seriesHorizonMonths', 24)),
    apiBaseUrl: str('apiBaseUrl'),
    oidc: issuer && jwksUrl ? { issuer, jwksUrl, audience: str('oidcAudience') } : undefined,
    authDomainPrefix: str('authDomainPrefix'),
    throttleRate: num('throttleRate', 50),
    throttleBurst: num('throttleBurst', 100),
    logRetention: retentionDays as RetentionDays,
    logLevel: str('logLevel', 'INFO')!,
    metricsNamespace: str('metricsNamespace', 'CalEvents')!,
    webhookConcurrency: deliveryConcurrency(num('webhookConcurrency', 2)),
    mailFrom: str('mailFrom'),
    // On by default in prod. DynamoDB and Cognito refuse to delete a protected table or pool, and so
    // refuse CloudFormation's rollback of the deploy that first created them (ROLLBACK_FAILED, the
    // resource left behind): a first deploy into an account can pass false and turn it on with the next.
    deletionProtection: bool('deletionProtection', stage === 'prod'),
    registrationLimitPerEmail: wholeCount('registrationLimitPerEmail', get('registrationLimitPerEmail'), 5),
    registrationLimitPerIp: wholeCount('registrationLimitPerIp', get('registrationLimitPerIp'), 30),
    registrationLimitWindowSeconds: wholeSeconds(num('registrationLimitWindowSeconds', 3600)),
  };
}

/** What SQS event sources accept as MaximumConcurrency: a whole number from 2 to 1000. */
function deliveryConcurrency(n: number): number {
  if (!Number.isInteger(n) || n < 2 || n > 1000)
    throw new Error(`Context "webhookConcurrency" must be a whole number from 2 to 1000, got ${n}`);
  return n;
}

/** The functions read SERIES_HORIZON_MONTHS as a whole number (shared/config.ts): refused here, not at run time. */
function wholeMonths(n: number): number {
  if (!Number.isInteger(n)) throw new Error(`Context "seriesHorizonMonths" must be a whole number, got ${n}`);
  return n;
}

/** A whole number, 0 or more (a limit that 0 turns off). */
function wholeCount(key: string, v: unknown, fallback: number): number {
  if (v === undefined || v === null || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`Context "${key}" must be a whole number (0 turns it off), got ${String(v)}`);
  return n;
}

/** The functions read the window as whole seconds (shared/config.ts): refused here, not at run time. */
function wholeSeconds(n: number): number {
  if (!Number.isInteger(n))
    throw new Error(`Context "registrationLimitWindowSeconds" must be a whole number, got ${n}`);
  return n;
}

/** An absolute http(s) URL without a trailing slash, or nothing. */
function siteUrlOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`Context "siteUrl" must be an absolute URL, got ${value}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error(`Context "siteUrl" must be an http(s) URL, got ${value}`);
  return value.replace(/\/+$/, '');
}

/** The SES identity ARN of a sender (`Name <a@b.org>` or `a@b.org`): its address's. */
export function mailIdentity(mailFrom: string): string {
  const address = /<([^>]+)>\s*$/.exec(mailFrom)?.[1] ?? mailFrom.trim();
  if (!/^[^@\s]+@[^@\s]+$/.test(address))
    throw new Error(`Context "mailFrom" must be an e-mail address or Name <address>, got ${mailFrom}`);
  return address;
}
