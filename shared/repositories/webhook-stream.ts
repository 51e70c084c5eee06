import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { ChangeEntry } from '../domain/changes';
import { keys } from '../db/keys';
import type { JobRef } from './webhook-deliveries';

/**
 * Items of the table's stream as the webhook engine takes them: new change-log entries (to dispatch)
 * and new jobs (to move to the deployed queue). The shape is both the stream API's record (the local
 * engine) and Lambda's DynamoDB stream event record (the deployed dispatcher).
 */
export interface StreamRecordLike {
  eventName?: string;
  dynamodb?: {
    Keys?: Record<string, { S?: string }>;
    NewImage?: Record<string, unknown>;
    SequenceNumber?: string;
  };
}

const newItem = (r: StreamRecordLike, partition: string, events: string[]) => {
  const image = r.dynamodb?.NewImage;
  if (!events.includes(r.eventName ?? '') || !image || r.dynamodb?.Keys?.pk?.S !== partition)
    return undefined;
  return unmarshall(image as Parameters<typeof unmarshall>[0]);
};

/** A new change-log entry; undefined for every other record. */
export function changeOfRecord(r: StreamRecordLike): ChangeEntry | undefined {
  const item = newItem(r, keys.changePartition, ['INSERT']);
  if (!item) return undefined;
  return {
    position: String(item.sk),
    resource: item.resource,
    id: Number(item.id),
    before: item.before,
    after: item.after,
    modified_utc: String(item.modified_utc),
  };
}

/** A job put in the table (a job put again under its key is a MODIFY); undefined for every other record. */
export function jobOfRecord(r: StreamRecordLike): JobRef | undefined {
  const item = newItem(r, keys.jobPartition, ['INSERT', 'MODIFY']);
  if (!item) return undefined;
  return { webhook: Number(item.webhook), delivery: String(item.delivery), due_ms: Number(item.due_ms) };
}
