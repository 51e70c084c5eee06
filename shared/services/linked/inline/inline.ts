import type { PostRecord } from '../../../domain/records';
import type { User } from '../../../domain/roles';
import * as inline from '../../../schemas/compiled/inlineRecords';
import { type InlineResult, linkedPostWrites } from '../write';
import { organizerType } from '../write';
import { venueType } from '../write';

const writers = { venue: linkedPostWrites(venueType), organizer: linkedPostWrites(organizerType) };

/**
 * The record an inline `venue` / `organizer` object of an event body names: an equal existing (or
 * already planned) record, or a new one to create in the event's own write.
 */
export function resolveInline(
  type: 'venue' | 'organizer',
  body: Record<string, unknown>,
  user: User,
  param: string,
  planned: PostRecord<object>[],
): Promise<InlineResult> {
  return writers[type].resolveInline(body, user, param, planned as never, inline[type], inline.shapes[type]);
}
