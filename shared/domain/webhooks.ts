import { randomBytes } from 'node:crypto';
import { type ChangeAction, type ChangeEntry, type ChangeResource, actionFor } from './changes';
import type { User } from './roles';

/**
 * Webhooks' rules: event types and their wildcards, what a subscription of each visibility is told of
 * a change-log entry, the retry schedule, and the secrets (Standard Webhooks' `whsec_` format).
 */

export const WEBHOOK_RESOURCES = [
  'event',
  'venue',
  'organizer',
  'category',
  'tag',
  'ticket',
  'attendee',
] as const;
export type WebhookResource = (typeof WEBHOOK_RESOURCES)[number];

const SINGULAR: Record<ChangeResource, WebhookResource> = {
  events: 'event',
  venues: 'venue',
  organizers: 'organizer',
  categories: 'category',
  tags: 'tag',
  tickets: 'ticket',
  attendees: 'attendee',
};

/** Every type a subscription may name: `<resource>.<action>`, `<resource>.*` and `*`. */
export const WEBHOOK_EVENT_TYPES: readonly string[] = [
  '*',
  ...WEBHOOK_RESOURCES.flatMap((r) => [
    `${r}.*`,
    ...(['created', 'updated', 'removed', 'restored'] as const).map((a) => `${r}.${a}`),
  ]),
];

export const PING_TYPE = 'webhook.ping';

export const VISIBILITIES = ['public', 'editor'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export const eventType = (resource: ChangeResource, action: ChangeAction) =>
  `${SINGULAR[resource]}.${action}`;

/** Whether a subscription's list of types takes `type` (exact, `<resource>.*` or `*`). */
export function matchesType(patterns: readonly string[], type: string): boolean {
  const resource = type.split('.')[0];
  return patterns.some((p) => p === '*' || p === type || p === `${resource}.*`);
}

/** Who a subscription of each visibility reads as: anonymous, or an editor (drafts, pending, private). */
export const readerOf = (visibility: Visibility): User | null =>
  visibility === 'editor' ? { sub: 'webhooks', role: 'editor' } : null;

/** What an entry is to a subscription of this visibility, exactly as that reader's change feed shows it. */
export const actionForVisibility = (e: Pick<ChangeEntry, 'before' | 'after'>, visibility: Visibility) =>
  actionFor(e, readerOf(visibility));

/** A new signing secret: `whsec_` and the base64 of 32 random bytes (Standard Webhooks). */
export const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** How long a rotated-out secret keeps signing beside the new one. */
export const SECRET_OVERLAP_MS = 24 * 3600 * 1000;

/**
 * Seconds before each attempt (Standard Webhooks' recommendation): the first at once, then 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h and 10 h after the failure before it. Eight attempts in all.
 */
export const DEFAULT_RETRY_SCHEDULE = [0, 5, 300, 1800, 7200, 18000, 36000, 36000] as const;

/** A subscription with no success for this long, failing again, is disabled. */
export const DISABLE_AFTER_MS = 5 * 24 * 3600 * 1000;

/**
 * The delay before attempt `n + 1` after `n` attempts, with ±10% jitter so that the retries of many
 * deliveries failing together do not arrive together; undefined once the schedule is used up.
 */
export function retryDelayMs(
  attemptsMade: number,
  schedule: readonly number[],
  random = Math.random,
): number | undefined {
  const seconds = schedule[attemptsMade];
  if (seconds === undefined) return undefined;
  return Math.round(seconds * 1000 * (0.9 + 0.2 * random()));
}

/** A delivery's outcome from the receiver's answer: 2xx done; 410 stop for good; anything else retry. */
export function outcomeOf(status: number): 'delivered' | 'gone' | 'retry' {
  if (status >= 200 && status < 300) return 'delivered';
  return status === 410 ? 'gone' : 'retry';
}
