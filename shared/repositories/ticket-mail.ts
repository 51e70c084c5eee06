import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { patterns } from '../db/access-patterns';
import { ddb, tableName } from '../db/client';
import { unlessConditionFails } from '../db/conditional';
import { keys } from '../db/keys';
import { collect, queryIndex } from '../db/query';
import type { WriteItem } from '../db/transact';
import { expirationOf } from '../domain/changes';

/**
 * The outbox of attendees' e-mails (docs/tickets.md, "Confirmation e-mail"). A mail item is put in
 * the same transaction as what it tells of (the registration, the promotion), under a key made of the
 * attendee and the kind: a registration either commits with its mail or not at all, and a repeated
 * write cannot queue a second mail. While it waits it sits in the MAILQUEUE index by due time.
 *
 * A registration's confirmation carries the attendee's secret link (docs/tickets.md, "Pages"): the
 * table keeps only the token's SHA-256 on the attendee, so the token itself waits in the mail item
 * (`link_token`) until the mail is sent, or has failed for good, and is removed then.
 */

/** The mails an attendee may get, one item each (a permanent delete of the event removes them all). */
export const MAIL_KINDS = ['confirmation', 'promoted'] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

export interface MailRecord {
  attendee_id: number;
  kind: MailKind;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  due_ms: number;
  sent_utc?: string;
  message_id?: string;
  last_error?: string;
  /** The attendee's secret token, for the link in the mail; only until the mail is sent (or failed). */
  link_token?: string;
}

/**
 * The mail's Put, as an item of the registration's (or promotion's) transaction; `linkToken`, the
 * attendee's secret, for the self-service link of a registration's confirmation.
 */
export const mailPut = (
  attendeeId: number,
  kind: MailKind,
  dueMs = Date.now(),
  linkToken?: string,
): WriteItem => ({
  Put: {
    TableName: tableName(),
    Item: {
      ...keys.mail(attendeeId, kind),
      ...keys.mailQueueIndex(dueMs, attendeeId, kind),
      type: 'mail',
      attendee_id: attendeeId,
      kind,
      status: 'pending',
      attempts: 0,
      due_ms: dueMs,
      ...(linkToken ? { link_token: linkToken } : {}),
    },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

/** Mails due at `nowMs` or before, earliest first (the index is read eventually consistent: claims decide). */
export async function dueMail(nowMs: number, limit: number): Promise<MailRecord[]> {
  const dueBy = `${new Date(nowMs).toISOString()}~`;
  const items = await collect(queryIndex({ ...patterns.dueMail.query(dueBy), pageSize: limit }), limit);
  return items.map((i) => ({
    attendee_id: Number(i.attendee_id),
    kind: i.kind as MailKind,
    status: i.status as MailRecord['status'],
    attempts: Number(i.attempts),
    due_ms: Number(i.due_ms),
    ...(typeof i.link_token === 'string' ? { link_token: i.link_token } : {}),
  }));
}

/**
 * Claims a mail for one attempt: counts the attempt and moves its due time to `retryMs` (when it is
 * tried again should this attempt never report). Only the claim whose attempt count was `m.attempts`
 * wins, so two senders never both send one attempt. undefined when another claimed it or it is done.
 */
export async function claimMail(
  m: MailRecord,
  nowMs: number,
  retryMs: number,
): Promise<MailRecord | undefined> {
  const out = await unlessConditionFails(
    ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.mail(m.attendee_id, m.kind),
        UpdateExpression: 'SET attempts = :next, due_ms = :due, gsi1sk = :sk',
        ConditionExpression: '#s = :pending AND attempts = :was AND due_ms <= :now',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: {
          ':next': m.attempts + 1,
          ':due': retryMs,
          ':sk': keys.mailQueueIndex(retryMs, m.attendee_id, m.kind).gsi1sk,
          ':pending': 'pending',
          ':was': m.attempts,
          ':now': nowMs,
        },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return out && { ...m, attempts: m.attempts + 1, due_ms: retryMs };
}

/**
 * Ends a claimed attempt: `sent` (with the transport's message ID) or `failed` for good leave the
 * queue, drop the attendee's secret token (nothing needs it any more) and expire with the change log;
 * a failure to retry keeps the due time the claim set, and the token for the next attempt.
 */
export async function settleMail(
  m: MailRecord,
  outcome: { status: 'sent'; messageId: string } | { status: 'failed' | 'pending'; error: string },
  nowMs: number,
): Promise<void> {
  const done = outcome.status !== 'pending';
  const values: Record<string, unknown> = { ':s': outcome.status, ':attempts': m.attempts };
  const sets = ['#s = :s'];
  if (outcome.status === 'sent') {
    sets.push('sent_utc = :at', 'message_id = :id');
    values[':at'] = new Date(nowMs).toISOString();
    values[':id'] = outcome.messageId;
  } else {
    sets.push('last_error = :e');
    values[':e'] = outcome.error.slice(0, 500);
  }
  if (done) {
    sets.push('expiration = :exp');
    values[':exp'] = expirationOf(nowMs);
  }
  await unlessConditionFails(
    ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.mail(m.attendee_id, m.kind),
        UpdateExpression: `SET ${sets.join(', ')}${done ? ' REMOVE gsi1pk, gsi1sk, link_token' : ''}`,
        ConditionExpression: 'attempts = :attempts',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: values,
      }),
    ),
  );
}
