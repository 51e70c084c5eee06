import { tableName } from '../db/client';
import { keys } from '../db/keys';
import type { WriteItem } from '../db/transact';
import type { RateCount } from '../domain/rate-limits';

/**
 * A rate limit's counter as an item of the transaction it limits (docs/tickets.md, "Rate limits"): it
 * counts one more under the condition that the window's count is still below the limit, so the limit
 * holds however many requests race (DynamoDB checks it at the write; nothing is read before), and a
 * refused request writes nothing at all. The item expires (TTL) a day after its window ends.
 */
export const rateCountWrite = (what: string, c: RateCount): WriteItem => ({
  Update: {
    TableName: tableName(),
    Key: keys.rateCount(what, c.scope, c.bucket, { start: c.windowStart, seconds: c.windowSeconds }),
    UpdateExpression: 'SET expiration = :exp ADD #n :one',
    ConditionExpression: 'attribute_not_exists(#n) OR #n < :limit',
    ExpressionAttributeNames: { '#n': 'n' },
    ExpressionAttributeValues: {
      ':one': 1,
      ':limit': c.limit,
      ':exp': c.windowStart + c.windowSeconds + 86_400,
    },
  },
});
