/**
 * A conditional write whose condition fails has lost a race on purpose (a claim taken, a version
 * moved on, a later write already there): the caller goes on without it. Any other error is one.
 */

/** The write's output, or undefined when its condition did not hold; other errors are thrown. */
export async function unlessConditionFails<T>(write: Promise<T>): Promise<T | undefined> {
  try {
    return await write;
  } catch (e) {
    // By name: the SDK's class, a mock's error and DynamoDB Local's answer all carry it.
    if ((e as { name?: unknown } | null)?.name === 'ConditionalCheckFailedException') return undefined;
    throw e;
  }
}
