import { type ApiClient, apiClient } from './api-client';

/**
 * The target's typed client: the seed's, retried after a 409, 429, 503 or a dropped connection, and
 * with the Idempotent-Replayed mark taken off a create's own retried attempt (see apiClient).
 */
export const importClient = (base: string, token: string): ApiClient =>
  apiClient(base, token, { unmarkReplays: true });
