import {
  type Answers,
  type AttendeeField,
  checkAnswers,
  type FieldInput,
  normalizeFields,
} from '../../domain/attendee-fields';
import { invalidParam } from '../../domain/errors';
import type { TicketRecord } from '../../domain/tickets';
import { nowWall } from './caller';

/**
 * Attendee information (docs/tickets.md): a ticket's questions as editors set them, and a
 * registration's answers checked against them. The rules are domain/attendee-fields.ts'.
 */

/**
 * The fields a ticket write sets (none when it sends none), `current` the ticket's fields so far. The
 * reference derives `requires_attendee_information` from the fields: one sent that contradicts them
 * is a 400 rather than a flag the answer would not show.
 */
export function fieldsOf(
  body: { attendee_information_fields?: FieldInput[]; requires_attendee_information?: boolean },
  current: AttendeeField[] = [],
): { attendee_information_fields?: AttendeeField[] } {
  const fields = body.attendee_information_fields && normalizeFields(body.attendee_information_fields);
  const requires = (fields ?? current).some((f) => f.required);
  if (body.requires_attendee_information !== undefined && body.requires_attendee_information !== requires)
    throw invalidParam(
      'requires_attendee_information',
      requires
        ? 'A field of attendee_information_fields is required: requires_attendee_information is true.'
        : 'No field of attendee_information_fields is required: mark one required (requires_attendee_information follows from them).',
    );
  return fields ? { attendee_information_fields: fields } : {};
}

/**
 * A registration's answers as stored (undefined when there are none), or a 400 naming the body field
 * they came in and each problem by slug. They come as `attendee_meta` (the reference's name) or
 * `information` (the attendee's answer's), not both.
 */
export function answersOf(
  ticket: TicketRecord,
  body: { attendee_meta?: Record<string, unknown>; information?: Record<string, unknown> },
): Answers | undefined {
  if (body.attendee_meta !== undefined && body.information !== undefined)
    throw invalidParam('information', 'Send the answers once: in attendee_meta or in information.');
  const param = body.information !== undefined ? 'information' : 'attendee_meta';
  const answers = checkAnswers(
    ticket.attendee_information_fields ?? [],
    body.attendee_meta ?? body.information,
    param,
    nowWall().slice(0, 10),
  );
  return Object.keys(answers).length > 0 ? answers : undefined;
}
