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
  siteUrl: string;
  siteTimezone: string;
  corsAllowOrigins: string[];
  maxPerPage: number;
  /** Most events one iCalendar feed holds. */
  icalMaxEvents: number;
  /** Seconds the change feed holds back new entries; more than a write function's timeout. */
  changesSettleSeconds: number;
  /** Public base URL when the API sits behind a custom domain; handlers otherwise use the request's host. */
  apiBaseUrl?: string;
  oidc?: OidcSettings;
  /** Prefix of Cognito's hosted sign-in domain; by default `<stack name>-<account>`. */
  authDomainPrefix?: string;
  throttleRate: number;
  throttleBurst: number;
  logRetention: RetentionDays;
  logLevel: string;
  /** CloudWatch namespace of the business counters (EventsCreated, Deletes, ClientErrors). */
  metricsNamespace: string;
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
    siteUrl: str('siteUrl', 'https://example.com')!,
    siteTimezone: str('siteTimezone', 'UTC')!,
    corsAllowOrigins: list('corsAllowOrigins', ['*']),
    maxPerPage: num('maxPerPage', 50),
    icalMaxEvents: num('icalMaxEvents', 2000),
    changesSettleSeconds: num('changesSettleSeconds', 15),
    apiBaseUrl: str('apiBaseUrl'),
    oidc: issuer && jwksUrl ? { issuer, jwksUrl, audience: str('oidcAudience') } : undefined,
    authDomainPrefix: str('authDomainPrefix'),
    throttleRate: num('throttleRate', 50),
    throttleBurst: num('throttleBurst', 100),
    logRetention: retentionDays as RetentionDays,
    logLevel: str('logLevel', 'INFO')!,
    metricsNamespace: str('metricsNamespace', 'CalEvents')!,
  };
}
