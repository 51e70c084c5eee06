import { afterEach, describe, expect, it, vi } from 'vitest';
import { contextFor } from '../../local/gateway';
import { operations } from '../../shared/contracts';

/** The local gateway's Lambda context: each operation's deployed time, counting down as in Lambda. */
const timeoutOf = (operationId: string) =>
  operations.find((o) => o.operationId === operationId)?.timeoutSeconds;

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

describe('the local Lambda context', () => {
  it("gives an operation its own timeout, else the functions' 10 s, counting down from the invocation", () => {
    vi.stubEnv('CAL_LOCAL_FUNCTION_TIMEOUT_MS', '');
    vi.useFakeTimers();

    const importing = contextFor('functions/imports/create-import', 'r1', timeoutOf('createImport'));
    const listing = contextFor('functions/events/list-events', 'r2', timeoutOf('listEvents'));
    expect(importing.getRemainingTimeInMillis()).toBe(29_000);
    expect(listing.getRemainingTimeInMillis()).toBe(10_000);

    vi.advanceTimersByTime(4_000);
    expect(importing.getRemainingTimeInMillis()).toBe(25_000);
    vi.advanceTimersByTime(20_000);
    expect(listing.getRemainingTimeInMillis()).toBe(0);
  });

  it("gives every function the tests' override when one is set", () => {
    vi.stubEnv('CAL_LOCAL_FUNCTION_TIMEOUT_MS', '60000');

    expect(contextFor('f', 'r', timeoutOf('createImport')).getRemainingTimeInMillis()).toBeGreaterThan(
      59_000,
    );
  });
});
