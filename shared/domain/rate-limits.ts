import { createHash } from 'node:crypto';
import { DomainError } from './errors';

/**
 * Fixed-window rate limits (docs/tickets.md, "Rate limits"): a counter per subject and window, counted
 * by the write it limits (the condition `n < limit` is DynamoDB's, at the write). Pure: the buckets,
 * the windows and the 429; the counters' writes are the repositories'.
 */

export type LimitScope = 'email' | 'ip';

/** One counter to move: the subject's bucket in one window, at most `limit` in it. */
export interface RateCount {
  scope: LimitScope;
  bucket: string;
  /** The window's start, whole seconds since the epoch. */
  windowStart: number;
  windowSeconds: number;
  limit: number;
}

/** The window holding `nowMs`: windows start at multiples of their length since the epoch. */
export function windowOf(nowMs: number, windowSeconds: number): { start: number; end: number } {
  const start = Math.floor(nowMs / 1000 / windowSeconds) * windowSeconds;
  return { start, end: start + windowSeconds };
}

/** Seconds until the window of `c` ends (at least 1): what Retry-After says. */
export const secondsLeft = (c: RateCount, nowMs: number): number =>
  Math.max(1, Math.ceil(c.windowStart + c.windowSeconds - nowMs / 1000));

/**
 * An address's bucket: its SHA-256 (the counter need not hold the address itself), case and
 * surrounding space folded, as the registration stores the address.
 */
export const emailBucket = (email: string): string =>
  createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 32);

/**
 * A client's bucket: an IPv4 address as it is (an IPv4-mapped IPv6 one, `::ffff:192.0.2.1`, as its
 * IPv4 form), an IPv6 address by its /64 (one host usually holds a whole /64, and could otherwise take
 * a fresh address for every request). undefined when it is no IP address.
 */
export function ipBucket(ip: string): string | undefined {
  const s = ip.trim().toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(s);
  const v4 = mapped?.[1] ?? s;
  if (/^\d{1,3}(?:\.\d{1,3}){3}$/.test(v4))
    return v4.split('.').every((o) => Number(o) <= 255) ? v4 : undefined;
  const groups = ipv6Groups(s);
  return groups && `${groups.slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address (zone and embedded IPv4 tail not taken), lower case, unpadded. */
function ipv6Groups(s: string): string[] | undefined {
  if (!/^[0-9a-f:]+$/.test(s) || s.split('::').length > 2) return undefined;
  const [head, tail] = s.split('::') as [string, string | undefined];
  const part = (x: string | undefined) => (x ? x.split(':') : []);
  const left = part(head);
  const right = part(tail);
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return undefined;
  const all = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...right];
  if (!all.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return undefined;
  return all.map((g) => g.replace(/^0+(?=.)/, ''));
}

/**
 * The counters an anonymous registration moves: its address's and its client's (when the address of
 * the client is known), each skipped when its limit is 0 (off).
 */
export function registrationCounts(
  o: { email: string; sourceIp?: string },
  limits: { perEmail: number; perIp: number; windowSeconds: number },
  nowMs: number,
): RateCount[] {
  const { start } = windowOf(nowMs, limits.windowSeconds);
  const window = { windowStart: start, windowSeconds: limits.windowSeconds };
  const out: RateCount[] = [];
  if (limits.perEmail > 0)
    out.push({ scope: 'email', bucket: emailBucket(o.email), limit: limits.perEmail, ...window });
  const ip = o.sourceIp === undefined ? undefined : ipBucket(o.sourceIp);
  if (limits.perIp > 0 && ip) out.push({ scope: 'ip', bucket: ip, limit: limits.perIp, ...window });
  return out;
}

/** A window's length in words: `an hour`, `3 hours`, `15 minutes`, `90 seconds`. */
export function duration(seconds: number): string {
  const [n, unit] =
    seconds % 3600 === 0
      ? [seconds / 3600, 'hour']
      : seconds % 60 === 0
        ? [seconds / 60, 'minute']
        : [seconds, 'second'];
  return n === 1 ? `${unit === 'hour' ? 'an' : 'a'} ${unit}` : `${n} ${unit}s`;
}

/** 429 with when to come back: `data.retry_after` (and the Retry-After header) in seconds. */
export const tooManyRegistrations = (c: RateCount, nowMs: number) => {
  const retryAfter = secondsLeft(c, nowMs);
  const who = c.scope === 'email' ? 'this e-mail address' : 'this network address';
  return new DomainError(
    'too-many',
    'rest_too_many_registrations',
    `Too many registrations from ${who}: at most ${c.limit} in ${duration(c.windowSeconds)}. Try again in ${retryAfter} seconds.`,
    { limit: c.scope, retry_after: retryAfter },
  );
};
