import { config } from '../../config';
import { type RateCount, registrationCounts } from '../../domain/rate-limits';
import type { TicketCaller } from './caller';

/**
 * The rate limits of a registration (docs/tickets.md, "Rate limits"): an anonymous one (no token)
 * counts against its e-mail address and its client's address, in fixed windows, at most the
 * deployment's settings in each; a signed-in caller is not limited. The counts are written in the
 * registration's own transaction (repositories/tickets.ts register).
 */
export function registrationLimits(c: TicketCaller, email: string, nowMs: number): RateCount[] {
  if (c.user) return [];
  return registrationCounts({ email, sourceIp: c.sourceIp }, config.registrationLimits, nowMs);
}
