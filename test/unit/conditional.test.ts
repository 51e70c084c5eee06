import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { unlessConditionFails } from '../../shared/db/conditional';

// The one rule of a conditional write that loses its race: the caller goes on without it.

describe('unlessConditionFails', () => {
  it('answers the write, undefined for a failed condition, and throws anything else', async () => {
    await expect(unlessConditionFails(Promise.resolve({ Attributes: { n: 1 } }))).resolves.toEqual({
      Attributes: { n: 1 },
    });
    const lost = new ConditionalCheckFailedException({
      message: 'The conditional request failed',
      $metadata: {},
    });
    await expect(unlessConditionFails(Promise.reject(lost))).resolves.toBeUndefined();
    const throttled = Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
    await expect(unlessConditionFails(Promise.reject(throttled))).rejects.toBe(throttled);
  });
});
